import SyntheticCity
import XCTest
@testable import FlyrLink

final class GeometryTests: XCTestCase {
    func wkbPoint(_ x: Double, _ y: Double, type: UInt32 = 1, bigEndian: Bool = false) -> [UInt8] {
        var b: [UInt8] = [bigEndian ? 0 : 1]
        func u32(_ v: UInt32) { withUnsafeBytes(of: bigEndian ? v.bigEndian : v.littleEndian) { b += $0 } }
        func f64(_ v: Double) { withUnsafeBytes(of: bigEndian ? v.bitPattern.bigEndian : v.bitPattern.littleEndian) { b += $0 } }
        u32(type)
        f64(x); f64(y)
        if type == 1001 { f64(5) }
        return b
    }

    /// A store gives back every footprint as it was given (parts, holes, empty ones), in any
    /// order asked, with replacements, and its measures agree with the footprints' own.
    func testFootprintStoreKeepsEveryFootprintAsItWas() {
        var rng = SeededGenerator(seed: 5)
        var footprints = (0..<3000).map { _ in RandomFootprints.make(&rng) }
        footprints[17] = .empty
        let builder = FootprintStore.Builder()
        for f in footprints { builder.append(f) }
        let built = builder.finish()
        let copied = FootprintStore(footprints)
        XCTAssertEqual(built.count, footprints.count)
        for (i, f) in footprints.enumerated() {
            XCTAssertEqual(built.footprint(i), f)
            XCTAssertEqual(copied.footprint(i), f)
            XCTAssertEqual(built[i].bbox, f.bbox)
            XCTAssertEqual(built[i].area, f.area)
            XCTAssertEqual(built[i].polygonCount, f.polygonCount)
        }
        let order: [Int32] = [2999, 0, 17, 5, 5, 1234]
        let fixed = RandomFootprints.make(&rng)
        let picked = FootprintStore(built, order: order, replacing: [5: fixed], pool: WorkerPool(threads: 2))
        XCTAssertEqual((0..<picked.count).map { picked.footprint($0) }, [footprints[2999], footprints[0], Footprint.empty, fixed, fixed, footprints[1234]])
        built.movePoints(pool: WorkerPool(threads: 2)) { Point2(x: $0.x + 1, y: $0.y - 2) }
        XCTAssertEqual(built.footprint(42), footprints[42].withPoints { pts in for k in pts.indices { pts[k] = Point2(x: pts[k].x + 1, y: pts[k].y - 2) } })
    }

    /// The centroid the features measure from: of the area, holes subtracted, parts weighed by
    /// their areas, whichever way a ring is wound, and as exact far from the frame's origin.
    func testCentroidIsTheAreasMiddle() {
        func square(_ x: Double, _ y: Double, _ side: Double, clockwise: Bool = false) -> [Point2] {
            let ring = [Point2(x: x, y: y), Point2(x: x + side, y: y), Point2(x: x + side, y: y + side), Point2(x: x, y: y + side), Point2(x: x, y: y)]
            return clockwise ? ring.reversed() : ring
        }
        func centroid(_ polygons: [[[Point2]]]) -> Point2 { Footprint(polygons: polygons.map { Polygon(rings: $0) }).withView { $0.centroid } }
        func assertNear(_ p: Point2, _ x: Double, _ y: Double, _ message: String, line: UInt = #line) {
            XCTAssertEqual(p.x, x, accuracy: 1e-9, message, line: line)
            XCTAssertEqual(p.y, y, accuracy: 1e-9, message, line: line)
        }
        assertNear(centroid([[square(0, 0, 10)]]), 5, 5, "a square")
        assertNear(centroid([[square(0, 0, 10, clockwise: true)]]), 5, 5, "wound the other way")
        // An L of a 10 × 10 square and a 10 × 5 bar beside it: (5·100 + 15·50) / 150, (5·100 + 2.5·50) / 150.
        let l = [Point2(x: 0, y: 0), Point2(x: 20, y: 0), Point2(x: 20, y: 5), Point2(x: 10, y: 5), Point2(x: 10, y: 10), Point2(x: 0, y: 10), Point2(x: 0, y: 0)]
        assertNear(centroid([[l]]), 1250.0 / 150, 625.0 / 150, "an L")
        // A 10 × 10 square with a 4 × 4 hole at (1, 1): (5·100 − 3·16) / 84 each way, either winding of the hole.
        assertNear(centroid([[square(0, 0, 10), square(1, 1, 4)]]), 452.0 / 84, 452.0 / 84, "a hole")
        assertNear(centroid([[square(0, 0, 10), square(1, 1, 4, clockwise: true)]]), 452.0 / 84, 452.0 / 84, "a hole wound the other way")
        // Two parts, 10 × 10 at the origin and 20 × 20 at (30, 0): (5·100 + 40·400) / 500, (5·100 + 10·400) / 500.
        assertNear(centroid([[square(0, 0, 10)], [square(30, 0, 20)]]), 33, 9, "two parts")
        // Far from the frame's origin, with fractions: each ring's sums taken from its first point
        // (the products of raw coordinates here would be metres off).
        let far = centroid([[square(700_000.37, 6_100_000.61, 10.3)]])
        XCTAssertEqual(far.x, 700_005.52, accuracy: 1e-6, "far from the origin")
        XCTAssertEqual(far.y, 6_100_005.76, accuracy: 1e-6, "far from the origin")
        let line = [Point2(x: 0, y: 0), Point2(x: 4, y: 2), Point2(x: 0, y: 0)]
        assertNear(centroid([[line]]), 2, 1, "no area: the middle of its box")
    }

    func testWKBReadsPointsInBothByteOrdersAndDropsZ() throws {
        XCTAssertEqual(try WKBReader.read(wkbPoint(1.5, -2)), .point(Point2(x: 1.5, y: -2)))
        XCTAssertEqual(try WKBReader.read(wkbPoint(3, 4, bigEndian: true)), .point(Point2(x: 3, y: 4)))
        XCTAssertEqual(try WKBReader.read(wkbPoint(3, 4, type: 1001)), .point(Point2(x: 3, y: 4)))
        XCTAssertEqual(try WKBReader.read(wkbPoint(.nan, .nan)), .empty("Point"))
    }

    func testWKBRefusesTruncatedAndUnknownInput() {
        let full = wkbPoint(1, 2)
        for n in 0..<full.count {
            XCTAssertThrowsError(try WKBReader.read(Array(full.prefix(n))))
        }
        XCTAssertThrowsError(try WKBReader.read(wkbPoint(1, 2, type: 99)))
        // A polygon claiming 2^31 rings must not allocate or hang.
        var huge: [UInt8] = [1, 3, 0, 0, 0]
        huge += [0xFF, 0xFF, 0xFF, 0x7F]
        XCTAssertThrowsError(try WKBReader.read(huge))
    }

    func testGEOSRepairsABowtieAndMeasuresIt() throws {
        let context = GEOSContext()
        let bowtie = Footprint(polygons: [Polygon(rings: [[.init(x: 0, y: 0), .init(x: 10, y: 10), .init(x: 10, y: 0), .init(x: 0, y: 10), .init(x: 0, y: 0)]])])
        let g = try context.geometry(bowtie)
        XCTAssertFalse(context.isValid(g))
        XCTAssertTrue(context.invalidReason(g).contains("Self-intersection"))
        let fixed = context.footprint(try context.makeValid(g))
        XCTAssertEqual(fixed.polygons.count, 2)
        XCTAssertEqual(fixed.area, 50, accuracy: 1e-9)
    }

    func testLocalFrameMeasuresMetres() throws {
        // Two points 0.001° of latitude apart near Copenhagen are about 111.3 m apart.
        let frame = LocalMetricFrame(center: Point2(x: 12.5, y: 55.7))
        let t = try frame.makeTransformer()
        var pts = [Point2(x: 12.5, y: 55.7), Point2(x: 12.5, y: 55.701)]
        t.forward(&pts)
        XCTAssertEqual(pts[0].distance(to: pts[1]), 111.33, accuracy: 0.1)
        var back = pts
        t.inverse(&back)
        XCTAssertEqual(back[1].y, 55.701, accuracy: 1e-10)
    }

    func testTransformerFromProjectedCRS() throws {
        let t = try CoordinateTransformer(from: "EPSG:25832", to: "EPSG:4326")
        let p = t.forward(Point2(x: 599649.41, y: 6142409.15))
        XCTAssertEqual(p.x, 10.59, accuracy: 0.02)   // lon first after normalisation
        XCTAssertEqual(p.y, 55.42, accuracy: 0.02)
        XCTAssertThrowsError(try CoordinateTransformer(from: "EPSG:999999", to: "EPSG:4326"))
    }
}
