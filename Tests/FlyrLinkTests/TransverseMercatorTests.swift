import XCTest
import SyntheticCity
@testable import FlyrLink

/// The frame's own transverse Mercator against PROJ's `+proj=tmerc` (the definition it replaces):
/// the same metres for the same lon/lat, to far below anything the outputs round to.
final class TransverseMercatorTests: XCTestCase {
    /// Random frames over the globe, points within a region of each (where runs live) and some far out.
    func testForwardAndInverseAgreeWithPROJ() throws {
        var rng = SeededGenerator(seed: 20261121)
        var worstForward = 0.0, worstInverse = 0.0, worstRoundTrip = 0.0
        for _ in 0..<40 {
            let frame = LocalMetricFrame(center: Point2(x: Double.random(in: -179...179, using: &rng),
                                                        y: Double.random(in: -80...80, using: &rng)))
            let proj = try frame.makeTransformer()
            let own = frame.transverseMercator
            let lonLat: [Point2] = (0..<500).map { k in
                let reach = k < 450 ? 1.5 : 12.0
                return Point2(x: max(-180, min(180, frame.centerLon + Double.random(in: -reach...reach, using: &rng))),
                              y: max(-89, min(89, frame.centerLat + Double.random(in: -reach...reach, using: &rng))))
            }
            var metres = lonLat
            proj.forward(&metres)
            var back = metres
            proj.inverse(&back)
            for k in lonLat.indices {
                let q = own.forward(lonLat[k])
                worstForward = max(worstForward, q.distance(to: metres[k]))
                let mine = own.inverse(q)
                worstRoundTrip = max(worstRoundTrip, abs(mine.x - lonLat[k].x), abs(mine.y - lonLat[k].y))
                let fromPROJ = own.inverse(metres[k])
                worstInverse = max(worstInverse, abs(fromPROJ.x - back[k].x), abs(fromPROJ.y - back[k].y))
            }
        }
        XCTAssertLessThan(worstForward, 1e-8, "metres from PROJ's")       // 10 nm (4 nm measured, 12° out)
        XCTAssertLessThan(worstRoundTrip, 1e-12, "degrees back")          // 0.1 µm on the ground
        XCTAssertLessThan(worstInverse, 1e-12)
    }

    func testOriginAndScaleOnTheCentralMeridian() {
        let own = LocalMetricFrame(center: Point2(x: 12.5, y: 55.7)).transverseMercator
        let origin = own.forward(Point2(x: 12.5, y: 55.7))
        XCTAssertEqual(origin.x, 0, accuracy: 1e-9)
        XCTAssertEqual(origin.y, 0, accuracy: 1e-9)
        // 0.001° of latitude near Copenhagen is about 111.33 m of meridian.
        XCTAssertEqual(own.forward(Point2(x: 12.5, y: 55.701)).y, 111.33, accuracy: 0.01)
    }

    func testUndefinedPointsComeOutNonFinite() {
        let own = LocalMetricFrame(center: Point2(x: 0, y: 0)).transverseMercator
        XCTAssertFalse(own.forward(Point2(x: 0, y: 95)).isFinite)
        XCTAssertFalse(own.forward(Point2(x: .nan, y: 10)).isFinite)
        XCTAssertFalse(own.forward(Point2(x: 90, y: 0)).isFinite)    // the pole of the transverse aspect
        XCTAssertFalse(own.inverse(Point2(x: .infinity, y: 0)).isFinite)
    }
}
