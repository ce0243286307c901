import Foundation

/// The fitted model that scores a candidate building: gradient-boosted trees over
/// `CandidateFeatures`, giving the probability that the candidate is the address's building, and
/// the calibration that maps the chosen candidate's probability to the share of such links that
/// were right (out-of-fold). A model is data: a JSON file with its format version and feature
/// names, written by `benchmarks/link-model/fit.py`; the default one is compiled in
/// (`LinkModelFile.json`, generated from `benchmarks/link-model/link-model.json`).
public struct LinkModel: Sendable {
    struct Tree: Sendable, Decodable {
        /// Node k: a leaf when feature[k] < 0 (its value is value[k]); else x[feature] <= threshold
        /// goes to left[k], the rest to right[k].
        let feature: [Int]
        let threshold: [Double]
        let left: [Int]
        let right: [Int]
        let value: [Double]
    }

    struct Calibration: Sendable, Decodable {
        let x: [Double]
        let y: [Double]
    }

    private struct File: Decodable {
        let format: String
        let version: Int
        let features: [String]
        let baseline: Double
        let trees: [Tree]
        let calibration: Calibration
    }

    static let format = "flyr-link-model"
    static let supportedVersion = 1

    let version: Int
    let baseline: Double
    let trees: [Tree]
    let calibration: Calibration

    /// The compiled-in model.
    public static let standard: LinkModel = {
        do { return try LinkModel(json: Data(LinkModelFile.json.utf8), source: "the compiled-in model") } catch {
            preconditionFailure("the compiled-in link model does not load: \(error)")
        }
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
        guard file.format == Self.format, file.version == Self.supportedVersion else {
            throw InputError("link model \(source): format \(file.format) version \(file.version); this flyr-link reads \(Self.format) version \(Self.supportedVersion)")
        }
        guard file.features == CandidateFeatures.names else {
            throw InputError("link model \(source): fitted on features \(file.features.joined(separator: ",")); this flyr-link measures \(CandidateFeatures.names.joined(separator: ","))")
        }
        for tree in file.trees {
            let n = tree.feature.count
            guard n > 0, [tree.threshold.count, tree.left.count, tree.right.count, tree.value.count].allSatisfy({ $0 == n }),
                  tree.feature.indices.allSatisfy({ k in tree.feature[k] < 0 || (tree.feature[k] < file.features.count
                      && (k + 1..<n).contains(tree.left[k]) && (k + 1..<n).contains(tree.right[k])) })
            else { throw InputError("link model \(source): a malformed tree") }
        }
        guard file.calibration.x.count == file.calibration.y.count, !file.calibration.x.isEmpty,
              zip(file.calibration.x, file.calibration.x.dropFirst()).allSatisfy({ $0 <= $1 })
        else { throw InputError("link model \(source): a malformed calibration") }
        version = file.version
        baseline = file.baseline
        trees = file.trees
        calibration = file.calibration
    }

    /// The probability, before calibration, that the candidate described by `x` is the address's
    /// building. (Children come after their parent, so every walk ends.)
    func probability(_ x: [Double]) -> Double {
        var raw = baseline
        for tree in trees {
            var k = 0
            while tree.feature[k] >= 0 { k = x[tree.feature[k]] <= tree.threshold[k] ? tree.left[k] : tree.right[k] }
            raw += tree.value[k]
        }
        return 1 / (1 + exp(-raw))
    }

    /// The share of links right among links chosen with this probability (isotonic, linear
    /// between its steps, as scikit-learn's IsotonicRegression predicts).
    func confidence(_ p: Double) -> Double {
        let xs = calibration.x, ys = calibration.y
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
