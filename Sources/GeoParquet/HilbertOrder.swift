/// Rows in the order of their boxes' centres along a Hilbert curve over the boxes' extent
/// (65,536 cells a side), ties in row order: neighbours on the map land in the same row group,
/// so a reader's bbox filter skips most groups. Rows without a box come last.
enum HilbertOrder {
    static func permutation(_ boxes: [BoundingBox?]) -> [Int] {
        var extent: BoundingBox?
        for case let b? in boxes {
            extent = extent.map { BoundingBox(xmin: min($0.xmin, b.xmin), ymin: min($0.ymin, b.ymin), xmax: max($0.xmax, b.xmax), ymax: max($0.ymax, b.ymax)) } ?? b
        }
        guard let e = extent else { return Array(boxes.indices) }
        let side = 65_535.0
        let sx = e.xmax > e.xmin ? side / (e.xmax - e.xmin) : 0
        let sy = e.ymax > e.ymin ? side / (e.ymax - e.ymin) : 0
        let keys: [UInt64] = boxes.map { b in
            guard let b else { return .max }
            let x = UInt32((((b.xmin + b.xmax) / 2 - e.xmin) * sx).rounded(.down))
            let y = UInt32((((b.ymin + b.ymax) / 2 - e.ymin) * sy).rounded(.down))
            return index(x: min(x, 65_535), y: min(y, 65_535))
        }
        return boxes.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
    }

    /// The cell's distance along the curve (the classic xy2d, 16 bits per axis).
    static func index(x: UInt32, y: UInt32) -> UInt64 {
        var (x, y) = (x, y)
        var d: UInt64 = 0
        var s: UInt32 = 1 << 15
        while s > 0 {
            let rx: UInt32 = (x & s) > 0 ? 1 : 0
            let ry: UInt32 = (y & s) > 0 ? 1 : 0
            d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = 65_535 - x
                    y = 65_535 - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
