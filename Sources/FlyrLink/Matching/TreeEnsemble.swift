import Foundation

/// One stage of the link model: gradient-boosted trees summed onto `baseline` and turned into a
/// probability as scikit-learn's HistGradientBoostingClassifier does; laid out per run (`Node`).
struct TreeEnsemble: Sendable {
    struct Tree: Sendable, Decodable {
        /// Node k: a leaf when feature[k] < 0 (its value is value[k]); else x[feature] <= threshold
        /// goes to left[k], the rest to right[k].
        let feature: [Int]
        let threshold: [Double]
        let left: [Int]
        let right: [Int]
        let value: [Double]
    }

    /// A node as evaluated, 16 bytes, children side by side (right = left + 1); a leaf leads to itself,
    /// so a walk takes exactly the tree's depth with no branch and an address's candidates walk together.
    struct Node: Sendable {
        let threshold: Double
        /// The feature and the left child in one word: a step loads it once (the loads are what the
        /// side-by-side walks wait on).
        private let link: UInt64

        init(threshold: Double, feature: Int32, left: Int32) {
            self.threshold = threshold
            link = UInt64(UInt32(bitPattern: feature)) | UInt64(UInt32(bitPattern: left)) << 32
        }

        var feature: Int { Int(UInt32(truncatingIfNeeded: link)) }
        var left: Int { Int(link >> 32) }
    }

    let width: Int
    let baseline: Double
    /// The trees as the file gives them (`fixing` lays them out again for one run).
    let trees: [Tree]
    let nodes: [Node]
    /// Each node's leaf value (0 for a split).
    let values: [Double]
    let roots: [Int32]
    let depths: [Int32]

    /// `fixed`: features whose value is known before any candidate is scored (see `LinkModel.fixing`).
    init(width: Int, baseline: Double, trees: [Tree], fixed: [Int: Double]) {
        self.width = width
        self.baseline = baseline
        self.trees = trees
        (nodes, values, roots, depths) = Self.flatten(trees, fixed: fixed)
    }

    /// The same trees with the splits on `fixed` features taken once.
    func fixing(_ fixed: [Int: Double]) -> TreeEnsemble { TreeEnsemble(width: width, baseline: baseline, trees: trees, fixed: fixed) }

    /// Every tree's nodes in one array, a node's children placed together; each tree's depth. A
    /// split on a feature of `fixed` is not laid out: its side for that value is taken in its place.
    static func flatten(_ trees: [Tree], fixed: [Int: Double]) -> ([Node], [Double], [Int32], [Int32]) {
        var nodes: [Node] = [], values: [Double] = [], roots: [Int32] = [], depths: [Int32] = []
        for tree in trees {
            roots.append(Int32(nodes.count))
            func reserve() -> Int {
                nodes.append(Node(threshold: .infinity, feature: 0, left: 0))
                values.append(0)
                return nodes.count - 1
            }
            // (tree node, flat slot, depth) still to fill; each slot was reserved by its parent.
            var pending = [(0, reserve(), 0)]
            var depth = 0
            while let (top, slot, d) = pending.popLast() {
                var k = top
                while tree.feature[k] >= 0, let x = fixed[tree.feature[k]] { k = x <= tree.threshold[k] ? tree.left[k] : tree.right[k] }
                depth = max(depth, d)
                if tree.feature[k] < 0 {
                    nodes[slot] = Node(threshold: .infinity, feature: 0, left: Int32(slot))
                    values[slot] = tree.value[k]
                    continue
                }
                let left = reserve()
                _ = reserve()
                nodes[slot] = Node(threshold: tree.threshold[k], feature: Int32(tree.feature[k]), left: Int32(left))
                pending.append((tree.left[k], left, d + 1))
                pending.append((tree.right[k], left + 1, d + 1))
            }
            depths.append(Int32(depth))
        }
        return (nodes, values, roots, depths)
    }

    /// The uncalibrated probability that each candidate is the address's building: `x` holds `count`
    /// rows of `width` features; trees summed in the file's order, as scikit-learn sums them.
    func probabilities(_ x: UnsafeBufferPointer<Double>, count: Int, into p: UnsafeMutableBufferPointer<Double>) {
        var j = 0
        while j < count {
            // Six candidates at a time when more than three remain (most addresses have six): six
            // independent walks keep the processor busy where three wait on their loads.
            if count - j > 3 { walk6(x, from: j, count: count, into: p); j += 6 } else { walk3(x, from: j, count: count, into: p); j += 3 }
        }
    }

    /// Candidates j, j + 1, j + 2 (those below `count`), each walk's node in a register of its own.
    private func walk3(_ x: UnsafeBufferPointer<Double>, from j: Int, count: Int, into p: UnsafeMutableBufferPointer<Double>) {
        let r0 = x.baseAddress! + j * width
        let r1 = j + 1 < count ? r0 + width : r0, r2 = j + 2 < count ? r0 + 2 * width : r0
        var s0 = baseline, s1 = baseline, s2 = baseline
        nodes.withUnsafeBufferPointer { nodes in
            values.withUnsafeBufferPointer { values in
                for t in 0..<roots.count {
                    // Every walk's first step reads the root: loaded once (see `walk6`).
                    guard depths[t] > 0 else { let v = values[Int(roots[t])]; s0 += v; s1 += v; s2 += v; continue }
                    let root = nodes[Int(roots[t])], f = root.feature
                    var k0 = root.left &+ Self.right(r0[f], root.threshold), k1 = root.left &+ Self.right(r1[f], root.threshold)
                    var k2 = root.left &+ Self.right(r2[f], root.threshold)
                    for _ in 1..<depths[t] {
                        let n0 = nodes[k0], n1 = nodes[k1], n2 = nodes[k2]
                        k0 = Int(n0.left) &+ Self.right(r0[Int(n0.feature)], n0.threshold)
                        k1 = Int(n1.left) &+ Self.right(r1[Int(n1.feature)], n1.threshold)
                        k2 = Int(n2.left) &+ Self.right(r2[Int(n2.feature)], n2.threshold)
                    }
                    s0 += values[k0]; s1 += values[k1]; s2 += values[k2]
                }
            }
        }
        for (i, s) in [s0, s1, s2].enumerated() where j + i < count { p[j + i] = 1 / (1 + exp(-s)) }
    }

    /// As `walk3`, candidates j..<j + 6.
    private func walk6(_ x: UnsafeBufferPointer<Double>, from j: Int, count: Int, into p: UnsafeMutableBufferPointer<Double>) {
        let r0 = x.baseAddress! + j * width
        let r1 = r0 + width, r2 = r0 + 2 * width, r3 = r0 + 3 * width
        let r4 = j + 4 < count ? r0 + 4 * width : r0, r5 = j + 5 < count ? r0 + 5 * width : r0
        var s0 = baseline, s1 = baseline, s2 = baseline, s3 = baseline, s4 = baseline, s5 = baseline
        nodes.withUnsafeBufferPointer { nodes in
            values.withUnsafeBufferPointer { values in
                for t in 0..<roots.count {
                    // Every walk's first step reads the same root node: loaded once, one load shorter on each
                    // walk's chain.
                    guard depths[t] > 0 else {
                        let v = values[Int(roots[t])]
                        s0 += v; s1 += v; s2 += v; s3 += v; s4 += v; s5 += v
                        continue
                    }
                    let root = nodes[Int(roots[t])], f = root.feature
                    var k0 = root.left &+ Self.right(r0[f], root.threshold), k1 = root.left &+ Self.right(r1[f], root.threshold)
                    var k2 = root.left &+ Self.right(r2[f], root.threshold), k3 = root.left &+ Self.right(r3[f], root.threshold)
                    var k4 = root.left &+ Self.right(r4[f], root.threshold), k5 = root.left &+ Self.right(r5[f], root.threshold)
                    for _ in 1..<depths[t] {
                        let n0 = nodes[k0], n1 = nodes[k1], n2 = nodes[k2], n3 = nodes[k3], n4 = nodes[k4], n5 = nodes[k5]
                        k0 = Int(n0.left) &+ Self.right(r0[Int(n0.feature)], n0.threshold)
                        k1 = Int(n1.left) &+ Self.right(r1[Int(n1.feature)], n1.threshold)
                        k2 = Int(n2.left) &+ Self.right(r2[Int(n2.feature)], n2.threshold)
                        k3 = Int(n3.left) &+ Self.right(r3[Int(n3.feature)], n3.threshold)
                        k4 = Int(n4.left) &+ Self.right(r4[Int(n4.feature)], n4.threshold)
                        k5 = Int(n5.left) &+ Self.right(r5[Int(n5.feature)], n5.threshold)
                    }
                    s0 += values[k0]; s1 += values[k1]; s2 += values[k2]; s3 += values[k3]; s4 += values[k4]; s5 += values[k5]
                }
            }
        }
        for (i, s) in [s0, s1, s2, s3, s4, s5].enumerated() where j + i < count { p[j + i] = 1 / (1 + exp(-s)) }
    }

    /// 1 when x goes to the right child (not x <= threshold, NaN included), else 0: a number, not
    /// a branch, which would be mispredicted half the time.
    @inline(__always) private static func right(_ x: Double, _ threshold: Double) -> Int {
        1 &- Int(unsafeBitCast(x <= threshold, to: UInt8.self))
    }

    /// `probabilities` of one candidate.
    func probability(_ x: [Double]) -> Double {
        precondition(x.count == width, "a row of \(width) features")
        var p = 0.0
        x.withUnsafeBufferPointer { x in withUnsafeMutablePointer(to: &p) { probabilities(x, count: 1, into: UnsafeMutableBufferPointer(start: $0, count: 1)) } }
        return p
    }
}
