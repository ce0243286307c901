/// A quick, conservative validity test for the usual one-ring footprint: when it says yes GEOS's
/// IsValid would too; anything unsure goes to GEOS (a GEOS geometry per plain rectangle is costly).
extension FootprintView {
    var isPlainlyValid: Bool {
        guard ringCount == 1 else { return false }
        let r = points
        let n = r.count - 1  // distinct vertices; the last repeats the first
        guard n >= 3, n <= Footprint.plainRingMaxVertices, r[0] == r[n] else { return false }
        guard Footprint.signedArea(r) != 0 else { return false }
        // Neighbouring edges must turn clearly (no spike or collinear fold-back).
        for i in 0..<n {
            let a = r[i == 0 ? n - 1 : i - 1], b = r[i], c = r[i + 1]
            if !Footprint.clearlyNonZero(a, b, c) { return false }
        }
        // Edges that do not share a vertex must be clearly apart.
        for i in 0..<(n - 2) {
            let p = r[i], q = r[i + 1]
            let minX = min(p.x, q.x), maxX = max(p.x, q.x), minY = min(p.y, q.y), maxY = max(p.y, q.y)
            for j in (i + 2)..<n where !(i == 0 && j == n - 1) {
                let s = r[j], t = r[j + 1]
                if max(s.x, t.x) < minX || min(s.x, t.x) > maxX || max(s.y, t.y) < minY || min(s.y, t.y) > maxY { continue }
                guard Footprint.clearlyNonZero(p, q, s), Footprint.clearlyNonZero(p, q, t),
                      Footprint.clearlyNonZero(s, t, p), Footprint.clearlyNonZero(s, t, q) else { return false }
                let crosses = (Footprint.orient(p, q, s) > 0) != (Footprint.orient(p, q, t) > 0)
                    && (Footprint.orient(s, t, p) > 0) != (Footprint.orient(s, t, q) > 0)
                if crosses { return false }
            }
        }
        return true
    }
}

extension Footprint {
    static let plainRingMaxVertices = 64

    var isPlainlyValid: Bool { withView { $0.isPlainlyValid } }

    @inline(__always)
    static func orient(_ a: Point2, _ b: Point2, _ c: Point2) -> Double {
        (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
    }

    /// The orientation of abc is far enough from zero that rounding cannot have changed its sign.
    @inline(__always)
    static func clearlyNonZero(_ a: Point2, _ b: Point2, _ c: Point2) -> Bool {
        let l = (b.x - a.x) * (c.y - a.y), r = (b.y - a.y) * (c.x - a.x)
        return abs(l - r) > 1e-12 * (abs(l) + abs(r))
    }
}
