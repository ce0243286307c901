/// Point-against-footprint measures in the metric frame, computed directly on the coordinates.
/// The matcher asks them about a million times per million addresses; building GEOS geometries
/// (and preparing them) for that cost more than the tests themselves.
extension FootprintView {
    /// Boundary-inclusive containment (GEOS `covers`): inside a shell and not strictly inside one of
    /// its holes; a point on any ring counts as covered.
    func covers(_ p: Point2) -> Bool {
        for polygon in 0..<polygonCount {
            let rings = ringsOfPolygon(polygon)
            guard let shell = rings.first else { continue }
            switch Footprint.locate(p, in: ring(shell)) {
            case .outside: continue
            case .boundary: return true
            case .inside:
                var inHole = false
                for hole in rings.dropFirst() {
                    switch Footprint.locate(p, in: ring(hole)) {
                    case .boundary: return true
                    case .inside: inHole = true
                    case .outside: break
                    }
                    if inHole { break }
                }
                if !inHole { return true }
            }
        }
        return false
    }

    /// The nearest point of the outline (every ring) to `p`, and its distance; ties keep the first
    /// segment in ring order. For a point outside the footprint this is its distance to it.
    func nearestOutlinePoint(to p: Point2) -> (distance: Double, point: Point2) {
        var best = Double.infinity
        var bestPoint = p
        for r in 0..<ringCount {
            let range = ringRange(r)
            guard range.count >= 2 else { continue }
            var a = points[range.lowerBound]
            for k in (range.lowerBound + 1)..<range.upperBound {
                let b = points[k]
                let q = Footprint.closestPoint(on: a, b, to: p)
                let dx = q.x - p.x, dy = q.y - p.y
                let d2 = dx * dx + dy * dy
                if d2 < best { best = d2; bestPoint = q }
                a = b
            }
        }
        return (best.squareRoot(), bestPoint)
    }
}

extension Footprint {
    func covers(_ p: Point2) -> Bool { withView { $0.covers(p) } }

    func nearestOutlinePoint(to p: Point2) -> (distance: Double, point: Point2) { withView { $0.nearestOutlinePoint(to: p) } }

    enum RingLocation { case inside, boundary, outside }

    /// Crossing number with a half-open rule on a ray to +x; a zero orientation within the segment's
    /// box is on the ring.
    static func locate(_ p: Point2, in ring: UnsafeBufferPointer<Point2>) -> RingLocation {
        guard ring.count >= 4 else { return .outside }
        var crossings = 0
        var a = ring[0]
        for k in 1..<ring.count {
            let b = ring[k]
            defer { a = b }
            let orient = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
            if orient == 0,
               p.x >= min(a.x, b.x), p.x <= max(a.x, b.x), p.y >= min(a.y, b.y), p.y <= max(a.y, b.y) {
                return .boundary
            }
            if (a.y > p.y) != (b.y > p.y) {
                // Upward edge: crossing when p is left of it; downward: when right.
                if b.y > a.y ? orient > 0 : orient < 0 { crossings += 1 }
            }
        }
        return crossings % 2 == 1 ? .inside : .outside
    }

    /// The point of segment ab nearest to p (GEOS LineSegment::closestPoint).
    @inline(__always)
    static func closestPoint(on a: Point2, _ b: Point2, to p: Point2) -> Point2 {
        let dx = b.x - a.x, dy = b.y - a.y
        let len2 = dx * dx + dy * dy
        guard len2 > 0 else { return a }
        let r = ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2
        if r <= 0 { return a }
        if r >= 1 { return b }
        return Point2(x: a.x + r * dx, y: a.y + r * dy)
    }
}
