/// Footprint-to-footprint distance in the metric frame, computed on the coordinates (as GEOS's
/// Distance: 0 when they touch, overlap or one holds the other). The accessory rule asks it for
/// every small footprint against its larger neighbours.
extension FootprintView {
    func distance(to other: FootprintView) -> Double {
        // One part inside the other footprint (no edges meet): a vertex of that part is covered.
        if anyPartStart(coveredBy: other) || other.anyPartStart(coveredBy: self) { return 0 }
        var best = Double.infinity
        forEachSegment { a, b in
            other.forEachSegment { c, d in
                if best == 0 { return }
                if Footprint.segmentsIntersect(a, b, c, d) { best = 0; return }
                best = min(best, Footprint.squaredDistance(a, to: c, d), Footprint.squaredDistance(b, to: c, d),
                           Footprint.squaredDistance(c, to: a, b), Footprint.squaredDistance(d, to: a, b))
            }
        }
        return best.squareRoot()
    }

    private func anyPartStart(coveredBy other: FootprintView) -> Bool {
        (0..<polygonCount).contains { p in
            let rings = ringsOfPolygon(p)
            guard let shell = rings.first, !ringRange(shell).isEmpty else { return false }
            return other.covers(points[ringRange(shell).lowerBound])
        }
    }

    /// Every ring edge, ring by ring.
    @inline(__always)
    func forEachSegment(_ body: (Point2, Point2) -> Void) {
        for r in 0..<ringCount {
            let range = ringRange(r)
            guard range.count >= 2 else { continue }
            for k in (range.lowerBound + 1)..<range.upperBound { body(points[k - 1], points[k]) }
        }
    }
}

extension Footprint {
    func distance(to other: Footprint) -> Double { withView { a in other.withView { b in a.distance(to: b) } } }

    @inline(__always)
    static func squaredDistance(_ p: Point2, to a: Point2, _ b: Point2) -> Double {
        let q = closestPoint(on: a, b, to: p)
        let dx = q.x - p.x, dy = q.y - p.y
        return dx * dx + dy * dy
    }

    /// Closed segments ab and cd share a point (touching and collinear overlap included).
    static func segmentsIntersect(_ a: Point2, _ b: Point2, _ c: Point2, _ d: Point2) -> Bool {
        if max(a.x, b.x) < min(c.x, d.x) || max(c.x, d.x) < min(a.x, b.x)
            || max(a.y, b.y) < min(c.y, d.y) || max(c.y, d.y) < min(a.y, b.y) { return false }
        let o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b)
        if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) { return true }
        // Touching or collinear: an endpoint on the other segment (the boxes overlap, checked above).
        func onSegment(_ p: Point2, _ s: Point2, _ t: Point2, _ o: Double) -> Bool {
            o == 0 && p.x >= min(s.x, t.x) && p.x <= max(s.x, t.x) && p.y >= min(s.y, t.y) && p.y <= max(s.y, t.y)
        }
        return onSegment(c, a, b, o1) || onSegment(d, a, b, o2) || onSegment(a, c, d, o3) || onSegment(b, c, d, o4)
    }
}
