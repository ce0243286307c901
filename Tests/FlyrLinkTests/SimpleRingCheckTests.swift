import XCTest
import SyntheticCity
@testable import FlyrLink

/// Footprint.isPlainlyValid never calls valid what GEOS calls invalid, and it does recognise the
/// common plain footprint (so the fast path is taken).
final class SimpleRingCheckTests: XCTestCase {
    private func ring(_ pts: [(Double, Double)]) -> Footprint {
        var r = pts.map { Point2(x: $0.0, y: $0.1) }
        r.append(r[0])
        return Footprint(polygons: [Polygon(rings: [r])])
    }

    func testPlainShapesAreRecognised() {
        XCTAssertTrue(ring([(0, 0), (10, 0), (10, 5), (0, 5)]).isPlainlyValid)
        XCTAssertTrue(ring([(0, 0), (10, 0), (10, 10), (5, 3), (0, 10)]).isPlainlyValid)  // concave
    }

    func testDoubtfulShapesGoToGEOS() {
        XCTAssertFalse(ring([(0, 0), (10, 10), (10, 0), (0, 10)]).isPlainlyValid)          // bow-tie
        XCTAssertFalse(ring([(0, 0), (10, 0), (10, 5), (10, 12), (10, 5), (0, 5)]).isPlainlyValid)  // spike
        XCTAssertFalse(ring([(0, 0), (5, 0), (10, 0), (10, 5), (0, 5)]).isPlainlyValid)   // collinear vertex
        XCTAssertFalse(ring([(0, 0), (10, 0), (5, 5), (10, 10), (0, 10), (5, 5)]).isPlainlyValid)  // self-touching
        XCTAssertFalse(ring([(0, 0), (10, 0), (0, 0.0)]).isPlainlyValid)                  // no area
    }

    /// Random rings, many self-intersecting, some snapped to a coarse grid so vertices repeat and
    /// edges touch: whenever the quick check says valid, GEOS agrees.
    func testNeverDisagreesWithGEOS() throws {
        var rng = SeededGenerator(seed: 7)
        let context = GEOSContext()
        var plain = 0, geosValid = 0
        for k in 0..<20_000 {
            let n = rng.int(3, 9)
            let grid = k % 2 == 0 ? 1.0 : 0.001
            var pts: [(Double, Double)] = []
            for _ in 0..<n { pts.append(((rng.uniform(0, 6) / grid).rounded() * grid, (rng.uniform(0, 6) / grid).rounded() * grid)) }
            let f = ring(pts)
            let valid = context.isValid(try context.geometry(f))
            if valid { geosValid += 1 }
            if f.isPlainlyValid {
                plain += 1
                XCTAssertTrue(valid, "quick check says valid, GEOS does not: \(pts)")
            }
        }
        XCTAssertGreaterThan(plain, 2_000)
        XCTAssertGreaterThan(geosValid, plain / 2)
    }
}
