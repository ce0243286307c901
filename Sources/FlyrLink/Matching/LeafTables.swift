import CLeafTables

/// A stage's trees as QuickScorer lays them out (`flyr_leaf_tables`): each split compared for eight
/// candidates at once in vectors, the leaf found from the bits the splits leave; the same leaves as
/// a plain walk of the nodes, so the same sums to the bit. For trees of at most 64 leaves.
final class LeafTables: @unchecked Sendable {
    static let maxLeaves = 64

    private let splitStart: UnsafeMutableBufferPointer<Int32>
    private let splitFeature: UnsafeMutableBufferPointer<Int32>
    private let splitThreshold: UnsafeMutableBufferPointer<Double>
    private let splitMask: UnsafeMutableBufferPointer<Int64>
    private let leafStart: UnsafeMutableBufferPointer<Int32>
    private let leafValue: UnsafeMutableBufferPointer<Double>
    /// What the kernel reads; it points into the buffers above, which live as long as this.
    let tables: UnsafeMutablePointer<flyr_leaf_tables>

    /// `fixed`: features whose value is known before any candidate is scored; the splits on them are
    /// taken here. Every tree has at most `maxLeaves` leaves (`LinkModel` checks).
    init(_ trees: [TreeEnsemble.Tree], fixed: [Int: Double]) {
        var splitStart: [Int32] = [0], features: [Int32] = [], thresholds: [Double] = [], masks: [Int64] = []
        var leafStart: [Int32] = [0], values: [Double] = []
        for tree in trees {
            // A split on a fixed feature has one side for this run: its node stands for that side.
            func resolved(_ node: Int) -> Int {
                var k = node
                while tree.feature[k] >= 0, let x = fixed[tree.feature[k]] { k = x <= tree.threshold[k] ? tree.left[k] : tree.right[k] }
                return k
            }
            var leaves: [Double] = []
            // Numbers node k's leaves left to right from `leaves.count`; each split's mask clears its left side's.
            func visit(_ k: Int) {
                guard tree.feature[k] >= 0 else { return leaves.append(tree.value[k]) }
                let slot = features.count
                features.append(Int32(tree.feature[k]))
                thresholds.append(tree.threshold[k])
                masks.append(0)
                let firstLeft = leaves.count
                visit(resolved(tree.left[k]))
                masks[slot] = Int64(bitPattern: ~(Self.ones(below: leaves.count) & ~Self.ones(below: firstLeft)))
                visit(resolved(tree.right[k]))
            }
            visit(resolved(0))
            precondition(leaves.count <= Self.maxLeaves, "a tree of more than \(Self.maxLeaves) leaves")
            splitStart.append(Int32(features.count))
            // Eight slots for a small tree: the vector kernel picks its leaf from a register.
            values += leaves + [Double](repeating: 0, count: max(0, 8 - leaves.count))
            leafStart.append(Int32(values.count))
        }
        func buffer<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
            _ = b.initialize(from: array)
            return b
        }
        self.splitStart = buffer(splitStart)
        splitFeature = buffer(features)
        splitThreshold = buffer(thresholds)
        splitMask = buffer(masks)
        self.leafStart = buffer(leafStart)
        leafValue = buffer(values)
        tables = .allocate(capacity: 1)
        tables.initialize(to: flyr_leaf_tables(tree_count: Int32(trees.count), split_start: self.splitStart.baseAddress,
                                               split_feature: splitFeature.baseAddress, split_threshold: splitThreshold.baseAddress,
                                               split_mask: splitMask.baseAddress, leaf_start: self.leafStart.baseAddress,
                                               leaf_value: leafValue.baseAddress))
    }

    deinit {
        for b in [UnsafeMutableRawBufferPointer(splitStart), UnsafeMutableRawBufferPointer(splitFeature),
                  UnsafeMutableRawBufferPointer(splitThreshold), UnsafeMutableRawBufferPointer(splitMask),
                  UnsafeMutableRawBufferPointer(leafStart), UnsafeMutableRawBufferPointer(leafValue)] { b.deallocate() }
        tables.deallocate()
    }

    /// The bits below `n` (0...64) set.
    private static func ones(below n: Int) -> UInt64 { n >= 64 ? ~0 : (1 << UInt64(n)) - 1 }

    /// `baseline` plus every tree's leaf value for `count` rows of `width` features at `rows`, into
    /// `sums`; `portable`: without AVX-512 even where the processor has it (tests).
    func sums(baseline: Double, rows: UnsafePointer<Double>, count: Int, width: Int, into sums: UnsafeMutablePointer<Double>,
              portable: Bool = false) {
        precondition(width <= Int(FLYR_LEAF_TABLES_MAX_WIDTH), "rows of at most \(FLYR_LEAF_TABLES_MAX_WIDTH) features")
        var j = 0
        while j < count {
            let n = min(Int(FLYR_LEAF_TABLES_LANES), count - j)
            if portable {
                flyr_leaf_sums_portable(tables, baseline, rows + j * width, Int32(n), Int32(width), sums + j)
            } else {
                flyr_leaf_sums(tables, baseline, rows + j * width, Int32(n), Int32(width), sums + j)
            }
            j += n
        }
    }
}
