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

    public init(boxes items: [BBox], nodeSize: Int = 16) {
        self.nodeSize = nodeSize
        count = items.count
        guard !items.isEmpty else {
            boxes = []
            refs = []
            levelBounds = [0]
            return
        }
        // Sort-Tile-Recursive: slices by x-centre, then y-centre within each slice.
        var order = Array(0..<items.count)
        let cx = items.map { ($0.minX + $0.maxX) / 2 }
        let cy = items.map { ($0.minY + $0.maxY) / 2 }
        order.sort { cx[$0] != cx[$1] ? cx[$0] < cx[$1] : $0 < $1 }
        let leafCount = (items.count + nodeSize - 1) / nodeSize
        let sliceCount = Int(Double(leafCount).squareRoot().rounded(.up))
        let sliceSize = sliceCount * nodeSize
        var start = 0
        while start < order.count {
            let end = min(start + sliceSize, order.count)
            order[start..<end].sort { cy[$0] != cy[$1] ? cy[$0] < cy[$1] : $0 < $1 }
            start = end
        }
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

    /// Visits the items whose boxes intersect `query` (in tree order).
    public func search(_ query: BBox, _ visit: (Int) -> Void) {
        guard !boxes.isEmpty else { return }
        // Stack of (node index, level); the root is the last box.
        var stack: [(Int, Int)] = [(boxes.count - 1, levelBounds.count - 2)]
        while let (node, level) = stack.popLast() {
            guard boxes[node].intersects(query) else { continue }
            if level == 0 {
                visit(Int(refs[node]))
                continue
            }
            let first = Int(refs[node])
            let childLevelEnd = levelBounds[level]
            let last = min(first + nodeSize, childLevelEnd)
            for child in first..<last where boxes[child].intersects(query) {
                stack.append((child, level - 1))
            }
        }
    }
}
