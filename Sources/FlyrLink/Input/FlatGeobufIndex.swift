import Foundation

/// The packed Hilbert R-tree a FlatGeobuf file may carry between its header and its features
/// (the format's "static packed R-tree", as flatbush and GDAL write it): nodes of 40 bytes (a box
/// of four doubles and a uint64), the root first and the leaves last, a leaf per feature in file
/// order whose offset is its feature's, from the first feature. Searched level by level, reading
/// only the nodes whose parents meet the box (a tile of a distributed run reads its part).
struct FlatGeobufIndex {
    static let nodeBytes = 40

    /// A feature found: where its size prefix is (from the first feature) and its 0-based index.
    struct Hit {
        var offset: Int
        var index: Int
    }

    let nodeSize: Int
    /// Each level's node range, leaves first (as flatgeobuf's generateLevelBounds).
    let levels: [Range<Int>]

    init(featureCount: Int, nodeSize: Int) {
        self.nodeSize = nodeSize
        var counts = [featureCount]
        var n = featureCount, nodes = n
        repeat {
            n = (n + nodeSize - 1) / nodeSize
            nodes += n
            counts.append(n)
        } while n != 1
        var levels: [Range<Int>] = []
        var end = nodes
        for count in counts {
            levels.append((end - count)..<end)
            end -= count
        }
        self.levels = levels
    }

    var nodeCount: Int { levels[0].upperBound }

    /// The features whose boxes meet `box`, in file order. `read(first, count)`: `count` nodes
    /// from node `first` (their 40 bytes each); `featureBytes`: the size of the features' section.
    /// An index whose offsets break the packed tree's rules (a child elsewhere than where its
    /// parent's place puts it, a feature outside the section, features out of order) is corrupt.
    func search(_ box: BBox, featureBytes: Int, read: (Int, Int) throws(FlatGeobufProblem) -> [UInt8]) throws(FlatGeobufProblem) -> [Hit] {
        var hits: [Hit] = []
        var queue: [(node: Int, level: Int)] = [(0, levels.count - 1)]
        let leaves = levels[0]
        while let (first, level) = queue.popLast() {
            let end = min(first + nodeSize, levels[level].upperBound)
            guard first >= levels[level].lowerBound, first < end else { throw .corrupt("spatial index: node \(first) is not on its level") }
            let bytes = try read(first, end - first)
            for k in 0..<(end - first) {
                // Four little-endian doubles and a uint64, read where they lie.
                let word = { (i: Int) in bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: k * Self.nodeBytes + 8 * i, as: UInt64.self).littleEndian } }
                let node = BBox(minX: Double(bitPattern: word(0)), minY: Double(bitPattern: word(1)),
                                maxX: Double(bitPattern: word(2)), maxY: Double(bitPattern: word(3)))
                guard node.intersects(box) else { continue }
                let raw = word(4)
                if level == 0 {
                    guard raw < UInt64(max(featureBytes, 0)) else { throw .corrupt("spatial index: feature offset \(raw) outside the file") }
                    hits.append(Hit(offset: Int(raw), index: first + k - leaves.lowerBound))
                } else {
                    // A packed tree's children: node n of a level has those of the level below from
                    // (its place on its level) × node size.
                    let child = levels[level - 1].lowerBound + (first + k - levels[level].lowerBound) * nodeSize
                    guard raw == UInt64(child) else { throw .corrupt("spatial index: node \(first + k) names child \(raw), not \(child)") }
                    queue.append((child, level - 1))
                }
            }
        }
        hits.sort { $0.index < $1.index }
        for k in hits.indices.dropFirst() where hits[k].offset <= hits[k - 1].offset {
            throw .corrupt("spatial index: feature \(hits[k].index + 1) does not follow feature \(hits[k - 1].index + 1) in the file")
        }
        return hits
    }
}
