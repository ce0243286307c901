/// How a flat run of points divides into rings and polygons: the one reading of a footprint's
/// `ends` (the number of ring ends, the ring ends, then the polygon ends; empty for one ring of all
/// the points in one polygon), shared by a footprint's own arrays and by a `FootprintStore`'s slabs.
/// Ring ends: end (exclusive) in the points of every ring; none when there is exactly one non-empty
/// ring. Polygon ends: end (exclusive) ring number of every polygon; none when there is exactly one
/// polygon with rings.
struct RingLayout<Ends: RandomAccessCollection> where Ends.Element == Int32, Ends.Index == Int {
    let ends: Ends
    let pointCount: Int

    @inline(__always) init(ends: Ends, pointCount: Int) {
        self.ends = ends
        self.pointCount = pointCount
    }

    /// Whether the points are one ring of one polygon (or none at all): the usual footprint.
    @inline(__always) var isSingleRing: Bool { ends.isEmpty }

    private var ringEndCount: Int { ends.isEmpty ? 0 : Int(ends[ends.startIndex]) }
    private func ringEnd(_ r: Int) -> Int { Int(ends[ends.startIndex + 1 + r]) }
    private var polygonEndCount: Int { ends.isEmpty ? 0 : ends.count - 1 - ringEndCount }
    private func polygonEnd(_ p: Int) -> Int { Int(ends[ends.startIndex + 1 + ringEndCount + p]) }

    var ringCount: Int { ringEndCount == 0 ? (pointCount == 0 ? 0 : 1) : ringEndCount }
    var polygonCount: Int { polygonEndCount == 0 ? (ringCount > 0 ? 1 : 0) : polygonEndCount }

    /// Where ring `r` (numbered across all polygons) lies in the points.
    @inline(__always)
    func ringRange(_ r: Int) -> Range<Int> {
        guard !ends.isEmpty else { return 0..<pointCount }  // the usual footprint
        let start = r == 0 ? 0 : ringEnd(r - 1)
        return start..<(ringEndCount == 0 ? pointCount : ringEnd(r))
    }

    /// The rings of polygon `p`: its shell first, then its holes.
    @inline(__always)
    func ringsOfPolygon(_ p: Int) -> Range<Int> {
        let start = p == 0 ? 0 : polygonEnd(p - 1)
        return start..<(polygonEndCount == 0 ? ringCount : polygonEnd(p))
    }
}
