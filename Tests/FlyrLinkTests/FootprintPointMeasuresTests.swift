import XCTest
import SyntheticCity
@testable import FlyrLink

/// The matcher's own covers and nearest-point measures agree with GEOS's prepared geometry.
final class FootprintPointMeasuresTests: XCTestCase {
    func testSquareBoundaryVertexAndNearest() {
        let square = Footprint(polygons: [Polygon(rings: [[.init(x: 0, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10), .init(x: 0, y: 10), .init(x: 0, y: 0)]])])
        XCTAssertTrue(square.covers(.init(x: 5, y: 5)))
        XCTAssertTrue(square.covers(.init(x: 10, y: 5)))   // on the outline
        XCTAssertTrue(square.covers(.init(x: 0, y: 0)))    // a vertex
        XCTAssertFalse(square.covers(.init(x: 10.001, y: 5)))
        let (d, q) = square.nearestOutlinePoint(to: .init(x: 13, y: 14))
        XCTAssertEqual(d, 5, accuracy: 1e-12)
        XCTAssertEqual(q, Point2(x: 10, y: 10))
    }

    func testHoleIsNotCoveredButItsOutlineIs() {
        let shell: [Point2] = [.init(x: 0, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 10), .init(x: 0, y: 10), .init(x: 0, y: 0)]
        let hole: [Point2] = [.init(x: 3, y: 3), .init(x: 3, y: 7), .init(x: 7, y: 7), .init(x: 7, y: 3), .init(x: 3, y: 3)]
        let f = Footprint(polygons: [Polygon(rings: [shell, hole])])
        XCTAssertFalse(f.covers(.init(x: 5, y: 5)))
        XCTAssertTrue(f.covers(.init(x: 3, y: 5)))
        XCTAssertTrue(f.covers(.init(x: 1, y: 5)))
        XCTAssertEqual(f.nearestOutlinePoint(to: .init(x: 5, y: 5)).distance, 2, accuracy: 1e-12)
    }

    /// Random concave polygons with holes and second parts, random points plus vertices and points
    /// on edges: the same answers as GEOS (distances to 1e-9 m).
    func testAgreesWithGEOSOnRandomShapes() throws {
        var rng = SeededGenerator(seed: 42)
        let context = GEOSContext()
        var checked = 0
        for _ in 0..<300 {
            let footprint = RandomFootprints.make(&rng)
            let prepared = try PreparedFootprint(context.geometry(footprint))
            var probes: [Point2] = (0..<40).map { _ in Point2(x: rng.uniform(-25, 25), y: rng.uniform(-25, 25)) }
            for ring in footprint.polygons.flatMap(\.rings) {
                probes.append(ring[1])
                // Midpoints of axis-parallel edges are exactly on the outline in binary floating point.
                for k in 1..<ring.count where ring[k].x == ring[k - 1].x || ring[k].y == ring[k - 1].y {
                    probes.append(Point2(x: (ring[k].x + ring[k - 1].x) / 2, y: (ring[k].y + ring[k - 1].y) / 2))
                }
            }
            for p in probes {
                let g = try context.point(p)
                XCTAssertEqual(footprint.covers(p), prepared.covers(g), "covers \(p) in \(footprint)")
                if !prepared.covers(g) {
                    let mine = footprint.nearestOutlinePoint(to: p)
                    let geos = try prepared.nearest(g)
                    XCTAssertEqual(mine.distance, geos.distance, accuracy: 1e-9, "distance from \(p)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 12_000)
    }

    /// Footprint-to-footprint distance (the accessory rule's) against GEOS's Distance, for pairs
    /// apart, touching at vertices and edges (grid coordinates), overlapping and nested.
    func testFootprintDistanceAgreesWithGEOS() throws {
        var rng = SeededGenerator(seed: 9)
        let context = GEOSContext()
        var zero = 0, positive = 0
        for _ in 0..<3000 {
            let a = RandomFootprints.make(&rng)
            let shift = Point2(x: (rng.uniform(-45, 45) * 2).rounded() / 2, y: (rng.uniform(-45, 45) * 2).rounded() / 2)
            let b = RandomFootprints.make(&rng).withPoints { pts in
                for k in pts.indices { pts[k] = Point2(x: pts[k].x + shift.x, y: pts[k].y + shift.y) }
            }
            let geos = context.distance(try context.geometry(a), try context.geometry(b))
            XCTAssertEqual(a.distance(to: b), geos, accuracy: 1e-9, "\(a) vs \(b)")
            XCTAssertEqual(b.distance(to: a), geos, accuracy: 1e-9)
            if geos == 0 { zero += 1 } else { positive += 1 }
        }
        XCTAssertGreaterThan(zero, 300)
        XCTAssertGreaterThan(positive, 300)
    }
}
