/// A polygon as rings of coordinates: the first ring is the shell, the others holes.
/// Rings are closed (first point repeated last), as in WKB.
public struct Polygon: Sendable, Hashable {
    public var rings: [[Point2]]

    public init(rings: [[Point2]]) {
        self.rings = rings
    }

    public var shell: [Point2] { rings.first ?? [] }
}

/// A building footprint: one or more polygons (a MultiPolygon when more than one), stored flat:
/// every ring's points in one array, with ring and polygon boundaries beside it. The usual footprint
/// (one polygon, one ring) is a single allocation: the boundary array is then empty, and costs
/// nothing. A million footprints as nested arrays were three allocations each, and most of the
/// run's memory and reference counting.
public struct Footprint: Sendable, Hashable {
    /// Every ring's points, ring after ring; each ring closed (first point repeated last).
    public private(set) var points: [Point2]
    /// The ring and polygon boundaries in one array (16 bytes a footprint, not 24: a run holds
    /// two per building): empty when both are, else the number of ring ends, the ring ends, then
    /// the polygon ends. Ring ends: end (exclusive) in `points` of every ring; none when there is
    /// exactly one non-empty ring. Polygon ends: end (exclusive) ring number of every polygon;
    /// none when there is exactly one polygon with rings.
    private var ends: [Int32]

    private var ringEndCount: Int { ends.isEmpty ? 0 : Int(ends[0]) }
    private func ringEnd(_ r: Int) -> Int { Int(ends[1 + r]) }
    private var polygonEndCount: Int { ends.isEmpty ? 0 : ends.count - 1 - Int(ends[0]) }
    private func polygonEnd(_ p: Int) -> Int { Int(ends[1 + Int(ends[0]) + p]) }

    private static func ends(rings: [Int32], polygons: [Int32]) -> [Int32] {
        rings.isEmpty && polygons.isEmpty ? [] : [Int32(rings.count)] + rings + polygons
    }

    public init(polygons: [Polygon]) {
        var pts: [Point2] = []
        pts.reserveCapacity(polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } })
        var rEnds: [Int32] = [], pEnds: [Int32] = []
        for poly in polygons {
            for ring in poly.rings {
                pts += ring
                rEnds.append(Int32(pts.count))
            }
            pEnds.append(Int32(rEnds.count))
        }
        if rEnds.count == 1, !pts.isEmpty { rEnds = [] }
        if pEnds.count == 1, pEnds[0] > 0 { pEnds = [] }
        points = pts
        ends = Self.ends(rings: rEnds, polygons: pEnds)
    }

    /// From the flat form itself: `ringEnds` ends every ring in `points`, `polygonEnds` every
    /// polygon in the rings (both exclusive, ascending, the last the total); as stored, either may
    /// be empty for one ring of all the points or one polygon of all the rings. A reader that
    /// gathers coordinates flat hands them over without a nested copy.
    public init(points: [Point2], ringEnds: [Int32], polygonEnds: [Int32]) {
        let rings = ringEnds.isEmpty ? (points.isEmpty ? 0 : 1) : ringEnds.count
        precondition(ringEnds.last.map(Int.init) ?? points.count == points.count && polygonEnds.last.map(Int.init) ?? rings == rings,
                     "ring and polygon ends must cover the points")
        self.points = points
        ends = Self.ends(rings: ringEnds.count == 1 && !points.isEmpty ? [] : ringEnds,
                         polygons: polygonEnds.count == 1 && polygonEnds[0] > 0 ? [] : polygonEnds)
    }

    /// No polygons.
    public static var empty: Footprint { Footprint(polygons: []) }

    public var ringCount: Int { ringEndCount == 0 ? (points.isEmpty ? 0 : 1) : ringEndCount }
    public var polygonCount: Int { polygonEndCount == 0 ? (ringCount > 0 ? 1 : 0) : polygonEndCount }

    /// Where ring `r` (numbered across all polygons) lies in `points`.
    @inline(__always)
    public func ringRange(_ r: Int) -> Range<Int> {
        guard !ends.isEmpty else { return 0..<points.count }  // the usual footprint
        let start = r == 0 ? 0 : ringEnd(r - 1)
        return start..<(ringEndCount == 0 ? points.count : ringEnd(r))
    }

    /// The rings of polygon `p`: its shell first, then its holes.
    @inline(__always)
    public func ringsOfPolygon(_ p: Int) -> Range<Int> {
        let start = p == 0 ? 0 : polygonEnd(p - 1)
        return start..<(polygonEndCount == 0 ? ringCount : polygonEnd(p))
    }

    /// The nested form, for code that builds or reshapes polygons; hot paths use the ranges.
    public var polygons: [Polygon] {
        get {
            (0..<polygonCount).map { p in Polygon(rings: ringsOfPolygon(p).map { Array(points[ringRange($0)]) }) }
        }
        set { self = Footprint(polygons: newValue) }
    }

    public var isEmpty: Bool {
        (0..<polygonCount).allSatisfy { p in
            let rings = ringsOfPolygon(p)
            return rings.isEmpty || ringRange(rings.lowerBound).count < 4
        }
    }

    /// The box of the shells (holes lie inside them).
    public var bbox: BBox {
        var b = BBox.empty
        if ringEndCount == 0 {
            for p in points { b.extend(p) }
            return b
        }
        for poly in 0..<polygonCount {
            let rings = ringsOfPolygon(poly)
            guard let shell = rings.first else { continue }
            for k in ringRange(shell) { b.extend(points[k]) }
        }
        return b
    }

    public var pointCount: Int { points.count }

    /// Planar area (shoelace), holes subtracted. Meaningful in a metric frame.
    public var area: Double {
        var total = 0.0
        for poly in 0..<polygonCount {
            for r in ringsOfPolygon(poly) {
                let a = abs(Footprint.signedArea(points[ringRange(r)]))
                total += r == ringsOfPolygon(poly).lowerBound ? a : -a
            }
        }
        return total
    }

    static func signedArea<C: RandomAccessCollection>(_ ring: C) -> Double where C.Element == Point2 {
        guard ring.count >= 3 else { return 0 }
        var s = 0.0
        var prev = ring[ring.index(before: ring.endIndex)]
        for p in ring {
            s += (prev.x * p.y - p.x * prev.y)
            prev = p
        }
        return s / 2
    }

    /// The same footprint with every point moved by `transform` (the structure unchanged): a
    /// reprojection transforms `points` in one call.
    public func withPoints(_ transform: (inout [Point2]) -> Void) -> Footprint {
        var copy = self
        let n = copy.points.count
        transform(&copy.points)
        precondition(copy.points.count == n, "a point transform must keep the number of points")
        return copy
    }

    /// Every point moved by `transform`, in place (the structure unchanged).
    public mutating func movePoints(_ transform: (Point2) -> Point2) {
        points.withUnsafeMutableBufferPointer { pts in
            for j in pts.indices { pts[j] = transform(pts[j]) }
        }
    }

    /// Each ring replaced by `transform(ring)` (which may change its length).
    public func mapRings(_ transform: ([Point2]) -> [Point2]) -> Footprint {
        Footprint(polygons: polygons.map { Polygon(rings: $0.rings.map(transform)) })
    }
}

/// What a source row's geometry turned out to be, before it is judged usable.
public enum SourceGeometry: Sendable, Hashable {
    case point(Point2)
    case multiPoint([Point2])
    case polygons(Footprint)   // Polygon or MultiPolygon
    case other(String)          // a type the linker does not use, by name
    case empty(String)          // an empty geometry of the named type
}
