import Foundation
import SyntheticCity
@testable import FlyrLink

/// Random footprints in metres around the origin, for tests that hold an implementation against
/// GEOS: concave stars on a half-metre grid (repeated and collinear vertices), some with a square
/// hole, some with a second part.
enum RandomFootprints {
    /// A star-shaped (so simple) polygon around a centre, on a 0.5 m grid so some edges are axis-parallel,
    /// sometimes with a square hole and a second part.
    static func make(_ rng: inout SeededGenerator) -> Footprint {
        func star(cx: Double, cy: Double, rMin: Double, rMax: Double, n: Int) -> [Point2] {
            var ring: [Point2] = []
            for k in 0..<n {
                let angle = Double(k) / Double(n) * 2 * .pi
                let r = rng.uniform(rMin, rMax)
                let p = Point2(x: ((cx + r * cos(angle)) * 2).rounded() / 2, y: ((cy + r * sin(angle)) * 2).rounded() / 2)
                if ring.last != p { ring.append(p) }
            }
            ring.append(ring[0])
            return ring
        }
        var polygons = [Polygon(rings: [star(cx: 0, cy: 0, rMin: 6, rMax: 15, n: Int(rng.uniform(4, 12)))])]
        if rng.uniform(0, 1) < 0.3 {
            polygons[0].rings.append([.init(x: -2, y: -2), .init(x: -2, y: 2), .init(x: 2, y: 2), .init(x: 2, y: -2), .init(x: -2, y: -2)])
        }
        if rng.uniform(0, 1) < 0.3 {
            polygons.append(Polygon(rings: [star(cx: 20, cy: 20, rMin: 2, rMax: 4, n: 6)]))
        }
        return Footprint(polygons: polygons)
    }
}
