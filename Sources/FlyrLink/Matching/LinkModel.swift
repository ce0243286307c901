import Foundation

/// The fitted model: two stages of gradient-boosted trees giving the probability that a candidate is
/// the address's building, and its calibration; data written by `fit.py`, the default compiled in.
public struct LinkModel: Sendable {
    /// Isotonic steps from probability to share right, for runs whose share inside is below
    /// `share_inside_below` (first that fits): points on the road are right less often.
    struct Calibration: Sendable, Decodable {
        let shareInsideBelow: Double
        let x: [Double]
        let y: [Double]

        enum CodingKeys: String, CodingKey {
            case shareInsideBelow = "share_inside_below"
            case x, y
        }
    }

    private struct File: Decodable {
        let format: String
        let version: Int
        let features: [String]
        let baseline: Double
        let trees: [TreeEnsemble.Tree]
        let secondStage: SecondStage?
        let calibration: [Calibration]

        enum CodingKeys: String, CodingKey { case format, version, features, baseline, trees, secondStage = "second_stage", calibration }
    }

    private struct SecondStage: Decodable {
        let features: [String]
        let baseline: Double
        let trees: [TreeEnsemble.Tree]
    }

    static let format = "flyr-link-model"
    /// Version 2: one stage; version 3: a second stage may follow (`second_stage`).
    static let supportedVersions = 2...3

    /// The first stage: every candidate from its own evidence (`CandidateFeatures`).
    let first: TreeEnsemble
    /// The second stage, when the file has one: the first's features plus the claims
    /// (`CompetingClaims`); its probability is the one calibrated.
    let second: TreeEnsemble?
    let calibration: [Calibration]

    /// The compiled-in model.
    public static var standard: LinkModel {
        do { return try compiledIn.get() } catch {
            preconditionFailure("the compiled-in link model does not load: \(error)")
        }
    }

    /// The compiled-in model, or why it does not load (only in a build whose features changed
    /// since the model was fitted).
    static let compiledIn: Result<LinkModel, InputError> = Result { () throws(InputError) in
        do throws(InputError) { return try LinkModel(json: Data(LinkModelFile.json.utf8), source: "the compiled-in model") } catch {
            throw InputError("\(error.message); re-fit it (benchmarks/link-model/fit.sh)")
        }
    }

    /// No trees, every candidate 0.5: the nearest is chosen. Stands in for a compiled-in model
    /// fitted on other features, in the run that writes the evidence to re-fit it.
    static let neutral: LinkModel = {
        let names = CandidateFeatures.names.map { "\"\($0)\"" }.joined(separator: ",")
        let json = #"{"format":"flyr-link-model","version":2,"features":["# + names
            + #"],"baseline":0,"trees":[],"calibration":[{"share_inside_below":2,"x":[0,1],"y":[0,1]}]}"#
        return try! LinkModel(json: Data(json.utf8), source: "the neutral model")
    }()

    public init(path: String) throws(InputError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("link model \(path): cannot read the file") }
        try self.init(json: data, source: path)
    }

    init(json: Data, source: String) throws(InputError) {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: json) } catch {
            throw InputError("link model \(source): not a flyr-link model file (\(error))")
        }
        guard file.format == Self.format, Self.supportedVersions.contains(file.version) else {
            throw InputError("link model \(source): format \(file.format) version \(file.version); this flyr-link reads \(Self.format) versions 2 and 3")
        }
        guard file.version >= 3 || file.secondStage == nil else {
            throw InputError("link model \(source): version \(file.version) has no second stage (a file with one is version 3)")
        }
        guard file.features == CandidateFeatures.names else {
            throw InputError("link model \(source): fitted on features \(file.features.joined(separator: ",")); this flyr-link measures \(CandidateFeatures.names.joined(separator: ","))")
        }
        if let second = file.secondStage, second.features != CompetingClaims.secondStageNames {
            throw InputError("link model \(source): second stage fitted on features \(second.features.joined(separator: ",")); this flyr-link measures \(CompetingClaims.secondStageNames.joined(separator: ","))")
        }
        for (tree, width) in file.trees.map({ ($0, file.features.count) }) + (file.secondStage?.trees ?? []).map({ ($0, CompetingClaims.secondStageNames.count) }) {
            let n = tree.feature.count
            guard n > 0, [tree.threshold.count, tree.left.count, tree.right.count, tree.value.count].allSatisfy({ $0 == n }),
                  tree.feature.indices.allSatisfy({ k in tree.feature[k] < 0 || (tree.feature[k] < width
                      && (k + 1..<n).contains(tree.left[k]) && (k + 1..<n).contains(tree.right[k])) })
            else { throw InputError("link model \(source): a malformed tree") }
            guard tree.leafCount <= LeafTables.maxLeaves else {
                throw InputError("link model \(source): a tree of \(tree.leafCount) leaves; flyr-link scores trees of at most \(LeafTables.maxLeaves)")
            }
        }
        guard !file.calibration.isEmpty, file.calibration.last!.shareInsideBelow > 1,
              file.calibration.allSatisfy({ c in c.x.count == c.y.count && !c.x.isEmpty && zip(c.x, c.x.dropFirst()).allSatisfy({ $0 <= $1 }) })
        else { throw InputError("link model \(source): a malformed calibration") }
        self.init(first: TreeEnsemble(width: CandidateFeatures.names.count, baseline: file.baseline, trees: file.trees, fixed: [:]),
                  second: file.secondStage.map {
                      TreeEnsemble(width: CompetingClaims.secondStageNames.count, baseline: $0.baseline, trees: $0.trees, fixed: [:])
                  },
                  calibration: file.calibration)
    }

    init(first: TreeEnsemble, second: TreeEnsemble?, calibration: [Calibration]) {
        self.first = first
        self.second = second
        self.calibration = calibration
    }

    /// The share of links right among links chosen with this probability in runs like this one
    /// (isotonic, linear between its steps, as scikit-learn's IsotonicRegression predicts).
    func confidence(_ p: Double, shareInside: Double) -> Double {
        let c = calibration.first { shareInside < $0.shareInsideBelow } ?? calibration[calibration.count - 1]
        let xs = c.x, ys = c.y
        if p <= xs[0] { return ys[0] }
        if p >= xs[xs.count - 1] { return ys[ys.count - 1] }
        var lo = 0, hi = xs.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if xs[mid] <= p { lo = mid } else { hi = mid }
        }
        let span = xs[hi] - xs[lo]
        return span > 0 ? ys[lo] + (ys[hi] - ys[lo]) * (p - xs[lo]) / span : ys[hi]
    }
}
