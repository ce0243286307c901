/// A static R-tree over boxes, packed once with Sort-Tile-Recursive and then only queried
/// (as shapely's STRtree): read-only after `init`, so any number of threads may query it.
public struct PackedRTree: Sendable {
    public let nodeSize: Int
    /// Boxes of all nodes, level by level from the leaves (the items, in packed order) to the root.
    private let boxes: [BBox]
    /// For leaves: the item index; for inner nodes: the index of the first child in `boxes`.
    private let refs: [Int32]
    /// Start of each level in `boxes`, plus the end.
    private let levelBounds: [Int]
    public let count: Int

    /// `nodeSize`: children per node, at most 64 (a search keeps one bit per child).
    init(boxes items: [BBox], nodeSize: Int = 16, pool: WorkerPool = WorkerPool(threads: 1)) {
        precondition((2...64).contains(nodeSize), "node size must be 2...64")
        self.nodeSize = nodeSize
        count = items.count
        guard !items.isEmpty else {
            boxes = []
            refs = []
            levelBounds = [0]
            return
        }
        // Sort-Tile-Recursive: slices by x-centre, then y-centre within each slice (ties by item).
        // Sorted as (centre, item) pairs: a comparison reads one array, not three.
        var keyed = items.indices.map { IndexedKey(key: (items[$0].minX + items[$0].maxX) / 2, index: Int32($0)) }
        ParallelSort.sort(&keyed, pool: pool)
        let leafCount = (items.count + nodeSize - 1) / nodeSize
        let sliceCount = Int(Double(leafCount).squareRoot().rounded(.up))
        let sliceSize = sliceCount * nodeSize
        // Each slice sorted by y-centre on the workers (slices are disjoint ranges).
        keyed.withUnsafeMutableBufferPointer { all in
            let base = all.baseAddress!
            pool.forEachRange(all.count, chunkSize: sliceSize) { stretch in
                var slice = UnsafeMutableBufferPointer(start: base + stretch.lowerBound, count: stretch.count)
                for i in slice.indices { slice[i].key = (items[Int(slice[i].index)].minY + items[Int(slice[i].index)].maxY) / 2 }
                slice.sort()
            }
        }
        let order = keyed.map { Int($0.index) }
        keyed = []
        // Every level's node count known up front: the arrays are sized once (appending would
        // leave up to half of each unused).
        var nodeCount = items.count, width = items.count
        repeat { width = (width + nodeSize - 1) / nodeSize; nodeCount += width } while width > 1
        var allBoxes: [BBox] = [], allRefs: [Int32] = []
        allBoxes.reserveCapacity(nodeCount)
        allRefs.reserveCapacity(nodeCount)
        for i in order { allBoxes.append(items[i]); allRefs.append(Int32(i)) }
        var bounds = [0]
        var levelStart = 0
        var levelEnd = allBoxes.count
        while levelEnd - levelStart > 1 || bounds.count == 1 {
            bounds.append(levelEnd)
            var i = levelStart
            while i < levelEnd {
                let j = min(i + nodeSize, levelEnd)
                var b = BBox.empty
                for k in i..<j { b.extend(allBoxes[k]) }
                allBoxes.append(b)
                allRefs.append(Int32(i))
                i = j
            }
            levelStart = levelEnd
            levelEnd = allBoxes.count
            if levelEnd - levelStart == 1 { break }
        }
        bounds.append(levelEnd)
        boxes = allBoxes
        refs = allRefs
        levelBounds = bounds
    }

    /// Indices of the items whose boxes intersect `query`, in ascending order.
    public func search(_ query: BBox) -> [Int] {
        var result: [Int] = []
        search(query) { result.append($0) }
        result.sort()
        return result
    }

    /// Visits the items whose boxes intersect `query`, in no particular order (callers that need
    /// one sort what they collect). Depth-first with the stack on the call stack: a search costs no
    /// allocation, and runs once per address and per footprint.
    public func search(_ query: BBox, _ visit: (Int) -> Void) {
        search(query) { item, _ in visit(item) }
    }

    /// As `search`, with each item's box as the tree holds it: beside the others it was packed
    /// with, where the caller's own array of boxes (in item order) would be a fetch from afar.
    public func search(_ query: BBox, _ visit: (Int, BBox) -> Void) {
        guard !boxes.isEmpty else { return }
        // At most nodeSize entries pushed per level on the way down, plus the root.
        let capacity = (levelBounds.count - 1) * nodeSize + 1
        boxes.withUnsafeBufferPointer { boxes in
            refs.withUnsafeBufferPointer { refs in
                withUnsafeTemporaryAllocation(of: (node: Int32, level: Int32).self, capacity: capacity) { stack in
                    stack[0] = (Int32(boxes.count - 1), Int32(levelBounds.count - 2))
                    var top = 1
                    while top > 0 {
                        top -= 1
                        let node = Int(stack[top].node), level = Int(stack[top].level)
                        guard boxes[node].intersects(query) else { continue }
                        let first = Int(refs[node])
                        if level == 0 { visit(first, boxes[node]); continue }  // a tree of one item: the root is the item
                        var hits = Self.intersecting(boxes, first..<min(first + nodeSize, levelBounds[level]), query)
                        if level == 1 {
                            // Children are items: visited here rather than pushed.
                            while hits != 0 {
                                let child = first + hits.trailingZeroBitCount
                                hits &= hits - 1
                                visit(Int(refs[child]), boxes[child])
                            }
                            continue
                        }
                        while hits != 0 {
                            stack[top] = (Int32(first + hits.trailingZeroBitCount), Int32(level - 1))
                            top += 1
                            hits &= hits - 1
                        }
                    }
                }
            }
        }
    }

    /// Bit k set when box `range.lowerBound + k` intersects `query` (as `BBox.intersects`). Every
    /// child is tested without a branch: whether a child meets the query is a coin toss for the
    /// branch predictor, and a search tests a few hundred of them (most of the matching stage's time
    /// went to mispredicted branches here).
    @inline(__always)
    private static func intersecting(_ boxes: UnsafeBufferPointer<BBox>, _ range: Range<Int>, _ query: BBox) -> UInt64 {
        var hits: UInt64 = 0
        for k in range {
            let b = boxes[k]
            let miss = (query.minX > b.maxX ? 1 : 0) | (query.maxX < b.minX ? 1 : 0)
                | (query.minY > b.maxY ? 1 : 0) | (query.maxY < b.minY ? 1 : 0)
            hits |= UInt64(1 - miss) << UInt64(k - range.lowerBound)
        }
        return hits
    }
}
