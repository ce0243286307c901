/// A polygon as rings of coordinates: the first ring is the shell, the others holes.
/// Rings are closed (first point repeated last), as in WKB.
public struct Polygon: Sendable, Hashable {
    public var rings: [[Point2]]

    public init(rings: [[Point2]]) {
        self.rings = rings
    }

    public var shell: [Point2] { rings.first ?? [] }
}

/// A building footprint: one or more polygons (a MultiPolygon when more than one).
public struct Footprint: Sendable, Hashable {
    public var polygons: [Polygon]

    public init(polygons: [Polygon]) {
        self.polygons = polygons
    }

    public var isEmpty: Bool { polygons.allSatisfy { $0.shell.count < 4 } }

    public var bbox: BBox {
        var b = BBox.empty
        for poly in polygons {
            for p in poly.shell { b.extend(p) }
        }
        return b
    }

    public var pointCount: Int {
        polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } }
    }

    /// Planar area (shoelace), holes subtracted. Meaningful in a metric frame.
    public var area: Double {
        var total = 0.0
        for poly in polygons {
            for (i, ring) in poly.rings.enumerated() {
                let a = abs(Footprint.signedArea(ring))
                total += i == 0 ? a : -a
            }
        }
        return total
    }

    static func signedArea(_ ring: [Point2]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var s = 0.0
        var prev = ring[ring.count - 1]
        for p in ring {
            s += (prev.x * p.y - p.x * prev.y)
            prev = p
        }
        return s / 2
    }
}

/// What a source row's geometry turned out to be, before it is judged usable.
public enum SourceGeometry: Sendable, Hashable {
    case point(Point2)
    case multiPoint([Point2])
    case polygons([Polygon])   // Polygon or MultiPolygon
    case other(String)          // a type the linker does not use, by name
    case empty(String)          // an empty geometry of the named type
}
