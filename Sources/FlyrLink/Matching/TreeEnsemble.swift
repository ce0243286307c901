import Foundation

/// One stage of the link model: gradient-boosted trees summed onto `baseline` and turned into a
/// probability as scikit-learn's HistGradientBoostingClassifier does; scored as leaf tables.
struct TreeEnsemble: Sendable {
    struct Tree: Sendable, Decodable {
        /// Node k: a leaf when feature[k] < 0 (its value is value[k]); else x[feature] <= threshold
        /// goes to left[k], the rest (NaN included) to right[k].
        let feature: [Int]
        let threshold: [Double]
        let left: [Int]
        let right: [Int]
        let value: [Double]

        var leafCount: Int { feature.count { $0 < 0 } }
    }

    let width: Int
    let baseline: Double
    /// The trees as the file gives them (`specialized` lays them out again for one run).
    let trees: [Tree]
    let leafTables: LeafTables

    /// `fixed`: features whose value is known before any candidate is scored (see `LinkModel.specialized`).
    init(width: Int, baseline: Double, trees: [Tree], fixed: [Int: Double]) {
        self.width = width
        self.baseline = baseline
        self.trees = trees
        leafTables = LeafTables(trees, fixed: fixed)
    }

    /// The same trees specialised to `fixed` features' values: their splits taken once.
    func specialized(_ fixed: [Int: Double]) -> TreeEnsemble { TreeEnsemble(width: width, baseline: baseline, trees: trees, fixed: fixed) }

    /// The uncalibrated probability that each candidate is the address's building: `x` holds `count`
    /// rows of `width` features; trees summed in the file's order, as scikit-learn sums them.
    func probabilities(_ x: UnsafeBufferPointer<Double>, count: Int, into p: UnsafeMutableBufferPointer<Double>) {
        precondition(x.count >= count * width && p.count >= count, "\(count) rows of \(width) features")
        leafTables.sums(baseline: baseline, rows: x.baseAddress!, count: count, width: width, into: p.baseAddress!)
        for i in 0..<count { p[i] = 1 / (1 + exp(-p[i])) }
    }

    /// `probabilities` of one candidate.
    func probability(_ x: [Double]) -> Double {
        precondition(x.count == width, "a row of \(width) features")
        var p = 0.0
        x.withUnsafeBufferPointer { x in withUnsafeMutablePointer(to: &p) { probabilities(x, count: 1, into: UnsafeMutableBufferPointer(start: $0, count: 1)) } }
        return p
    }
}
