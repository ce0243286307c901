/// A polygon as rings of coordinates: the first ring is the shell, the others holes.
/// Rings are closed (first point repeated last), as in WKB.
public struct Polygon: Sendable, Hashable {
    public var rings: [[Point2]]

    public init(rings: [[Point2]]) {
        self.rings = rings
    }

    public var shell: [Point2] { rings.first ?? [] }
}

/// A building footprint: one or more polygons, stored flat (every ring's points in one array, the
/// boundaries beside it), so the usual one-ring footprint is a single allocation.
public struct Footprint: Sendable, Hashable {
    /// Every ring's points, ring after ring; each ring closed (first point repeated last).
    public private(set) var points: [Point2]
    /// The ring and polygon boundaries in one array, as `RingLayout` reads them: empty when there is one
    /// ring of all the points.
    private(set) var ends: [Int32]

    @inline(__always) var layout: RingLayout<[Int32]> { RingLayout(ends: ends, pointCount: points.count) }

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

    /// From the flat form: `ringEnds` and `polygonEnds` (exclusive, ascending, the last the total;
    /// either may be empty for one ring or one polygon), so a flat reader hands over without a copy.
    public init(points: [Point2], ringEnds: [Int32], polygonEnds: [Int32]) {
        let rings = ringEnds.isEmpty ? (points.isEmpty ? 0 : 1) : ringEnds.count
        precondition(ringEnds.last.map(Int.init) ?? points.count == points.count && polygonEnds.last.map(Int.init) ?? rings == rings,
                     "ring and polygon ends must cover the points")
        self.points = points
        ends = Self.ends(rings: ringEnds.count == 1 && !points.isEmpty ? [] : ringEnds,
                         polygons: polygonEnds.count == 1 && polygonEnds[0] > 0 ? [] : polygonEnds)
    }

    /// From points and ends in `RingLayout`'s form, as a store keeps them.
    init(points: [Point2], layoutEnds: [Int32]) {
        self.points = points
        ends = layoutEnds
    }

    /// No polygons.
    public static var empty: Footprint { Footprint(polygons: []) }

    public var ringCount: Int { layout.ringCount }
    public var polygonCount: Int { layout.polygonCount }

    /// Where ring `r` (numbered across all polygons) lies in `points`.
    @inline(__always)
    public func ringRange(_ r: Int) -> Range<Int> { layout.ringRange(r) }

    /// The rings of polygon `p`: its shell first, then its holes.
    @inline(__always)
    public func ringsOfPolygon(_ p: Int) -> Range<Int> { layout.ringsOfPolygon(p) }

    /// The footprint read in place: the measures are written once, for views (a store's
    /// footprints are only ever views).
    @inline(__always)
    func withView<R>(_ body: (FootprintView) -> R) -> R {
        points.withUnsafeBufferPointer { p in ends.withUnsafeBufferPointer { e in body(FootprintView(points: p, ends: e)) } }
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
    public var bbox: BBox { withView { $0.bbox } }

    public var pointCount: Int { points.count }

    /// Planar area (shoelace), holes subtracted. Meaningful in a metric frame.
    public var area: Double { withView { $0.area } }

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
