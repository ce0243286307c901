import XCTest
import SyntheticCity
@testable import FlyrLink

/// Townhouse rows are cut into one slice per address; apartment blocks and clustered addresses are not.
final class TownhouseTests: XCTestCase {
    /// A local GeoJSON scene near (10°E, 56°N) built in metres: features from rectangles and points.
    struct Scene {
        var buildings: [(id: String, rings: [[(Double, Double)]])] = []
        var addresses: [(id: String, number: String, street: String, unit: String?, x: Double, y: Double)] = []

        static let lon0 = 10.0, lat0 = 56.0
        static func lonLat(_ x: Double, _ y: Double) -> String {
            let lon = lon0 + x / (111_320 * cos(lat0 * .pi / 180)), lat = lat0 + y / 110_574
            return "[\(lon),\(lat)]"
        }

        func write(to dir: URL) throws -> (String, String) {
            let b = buildings.map { bld in
                let rings = bld.rings.map { "[" + $0.map { Scene.lonLat($0.0, $0.1) }.joined(separator: ",") + "]" }.joined(separator: ",")
                return #"{"type":"Feature","properties":{"id":"\#(bld.id)"},"geometry":{"type":"Polygon","coordinates":[\#(rings)]}}"#
            }
            let a = addresses.map { ad in
                let unit = ad.unit.map { "\"\($0)\"" } ?? "null"
                return #"{"type":"Feature","properties":{"id":"\#(ad.id)","house_number":"\#(ad.number)","street_name":"\#(ad.street)","unit":\#(unit)},"geometry":{"type":"Point","coordinates":\#(Scene.lonLat(ad.x, ad.y))}}"#
            }
            let bp = dir.appendingPathComponent("b.geojson"), ap = dir.appendingPathComponent("a.geojson")
            try ("{\"type\":\"FeatureCollection\",\"features\":[" + b.joined(separator: ",") + "]}").write(to: bp, atomically: true, encoding: .utf8)
            try ("{\"type\":\"FeatureCollection\",\"features\":[" + a.joined(separator: ",") + "]}").write(to: ap, atomically: true, encoding: .utf8)
            return (bp.path, ap.path)
        }
    }

    static func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [[(Double, Double)]] {
        [[(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]]
    }

    func run(_ scene: Scene, threads: Int = 2) throws -> LinkRun {
        let dir = TestPaths.temporaryDirectory(self)
        let (b, a) = try scene.write(to: dir)
        var options = RunOptions(buildings: SourceSpec(location: b), addresses: SourceSpec(location: a), output: dir.appendingPathComponent("out").path)
        options.threads = threads
        return try LinkPipeline(options: options).run()
    }

    func testARowOfFiveIsCutIntoFiveOrderedSlicesThatTileIt() throws {
        var scene = Scene()
        // 5 units of 6 m along x, 10 m deep; doors 2 m in front, numbered 2..10 from the east end.
        scene.buildings.append(("row", Self.rect(0, 0, 30, 10)))
        for k in 0..<5 {
            scene.addresses.append(("a\(k)", String(10 - 2 * k), "Elm Street", nil, 3 + 6 * Double(k), -2))
        }
        let run = try run(scene)
        XCTAssertEqual(run.units.count, 5)
        // unit 0 is the lowest number's end (house 2 at the east end, address a4).
        let byAddress = Dictionary(uniqueKeysWithValues: run.units.map { (run.addresses[$0.addressIndex].id, $0) })
        for k in 0..<5 { XCTAssertEqual(byAddress["a\(k)"]?.unitIndex, 4 - k) }
        try assertTiles(run, building: "row")
        // Each address lies in (or nearest to) its own slice.
        for u in run.units {
            let frame = run.frame
            let t = try frame.makeTransformer()
            var slice = u.footprint.polygons[0].shell
            t.forward(&slice)
            let p = t.forward(try XCTUnwrap(run.location(ofAddress: u.addressIndex)))
            let xs = slice.map(\.x)
            XCTAssertTrue(p.x >= xs.min()! - 0.01 && p.x <= xs.max()! + 0.01, "address outside its slice along the row")
        }
        XCTAssertTrue(run.links.allSatisfy { $0.unitIndex != nil })
    }

    func testCutsFollowThePartyWallsTheOutlineShows() throws {
        var scene = Scene()
        // Four houses 5, 7, 6.5 and 5.5 m wide, every other front set back by 1 m: the steps at
        // x = 5, 12 and 18.5 are the party walls; equal division would cut at 6, 12 and 18.
        scene.buildings.append(("stepped", [[(0, 0), (5, 0), (5, 1), (12, 1), (12, 0), (18.5, 0), (18.5, 1), (24, 1), (24, 10), (0, 10), (0, 0)]]))
        for (k, x) in [2.5, 8.5, 15.25, 21.25].enumerated() { scene.addresses.append(("s\(k)", String(1 + 2 * k), "Elm Street", nil, x, -2)) }
        let run = try run(scene)
        XCTAssertEqual(run.units.count, 4)
        try assertTiles(run, building: "stepped")
        let t = try run.frame.makeTransformer()
        var west = Double.infinity
        var easts: [Double] = []
        for u in run.units {
            var slice = u.footprint.polygons[0].shell
            t.forward(&slice)
            west = min(west, slice.map(\.x).min()!)
            easts.append(slice.map(\.x).max()!)
        }
        let cuts = easts.sorted().dropLast().map { $0 - west }
        for (cut, wall) in zip(cuts, [5, 12, 18.5]) { XCTAssertEqual(cut, wall, accuracy: 0.05, "cut \(cuts)") }
    }

    func testAnLShapedRowStillTiles() throws {
        var scene = Scene()
        scene.buildings.append(("ell", [[(0, 0), (36, 0), (36, 10), (8, 10), (8, 16), (0, 16), (0, 0)]]))
        for k in 0..<6 { scene.addresses.append(("l\(k)", String(1 + 2 * k), "Oak Road", nil, 3 + 6 * Double(k), -3)) }
        let run = try run(scene)
        XCTAssertEqual(run.units.count, 6)
        try assertTiles(run, building: "ell")
    }

    func testApartmentBlocksAndClusteredAddressesAreNotSplit() throws {
        var scene = Scene()
        scene.buildings.append(("block", Self.rect(0, 0, 40, 15)))
        for k in 0..<8 { scene.addresses.append(("u\(k)", "12", "Birch Street", String(k + 1), 20 + 0.1 * Double(k), -2)) }
        scene.buildings.append(("cluster", Self.rect(100, 0, 140, 15)))
        for k in 0..<3 { scene.addresses.append(("c\(k)", String(1 + 2 * k), "Birch Street", nil, 120 + 0.5 * Double(k), -2)) }
        scene.buildings.append(("corner", Self.rect(200, 0, 230, 10)))
        scene.addresses.append(("s1", "1", "Birch Street", nil, 205, -2))
        scene.addresses.append(("s2", "3", "Ash Lane", nil, 225, -2))
        let run = try run(scene)
        XCTAssertEqual(run.units.count, 0)
        XCTAssertEqual(run.links.count, 13)
    }

    /// The same row of four houses, tagged by its source: a block of flats or a shop is never cut;
    /// `terrace` (or no type, or `yes`) is. The type is read from OSM's `building` key.
    func testBuildingTypesAreReadWhateverTheirCaseAndSpaces() {
        XCTAssertEqual(BuildingType(tag: "apartments"), .flats)
        XCTAssertEqual(BuildingType(tag: " Apartments "), .flats)
        XCTAssertEqual(BuildingType(tag: "RETAIL"), .notAHome)
        XCTAssertEqual(BuildingType(tag: "terrace"), .unknown)
        XCTAssertEqual(BuildingType(tag: "Yes"), .unknown)
        XCTAssertEqual(BuildingType(tag: nil), .unknown)
    }

    func testABuildingTaggedAsFlatsOrNoHomeIsNotCut() throws {
        for (tag, units) in [("apartments", 0), ("retail", 0), ("terrace", 4), ("yes", 4)] {
            var scene = Scene()
            scene.buildings.append(("row", Self.rect(0, 0, 24, 10)))
            for k in 0..<4 { scene.addresses.append(("t\(k)", String(1 + 2 * k), "Elm Street", nil, 3 + 6 * Double(k), -2)) }
            let dir = TestPaths.temporaryDirectory(self).appendingPathComponent(tag)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let (b, a) = try scene.write(to: dir)
            let tagged = try String(contentsOfFile: b, encoding: .utf8).replacingOccurrences(of: #""id":"row""#, with: #""id":"row","building":"\#(tag)""#)
            try tagged.write(toFile: b, atomically: true, encoding: .utf8)
            let options = RunOptions(buildings: SourceSpec(location: b), addresses: SourceSpec(location: a),
                                     output: dir.appendingPathComponent("out").path)
            let run = try LinkPipeline(options: options).run()
            XCTAssertEqual(run.buildings.first?.type, BuildingType(tag: tag), tag)
            XCTAssertEqual(run.links.count, 4, tag)
            XCTAssertEqual(run.units.count, units, tag)
        }
    }

    func testUnitIDsAreStableAcrossRunsAndThreads() throws {
        var scene = Scene()
        scene.buildings.append(("row", Self.rect(0, 0, 24, 9)))
        for k in 0..<4 { scene.addresses.append(("r\(k)", String(1 + k), "Pine Street", nil, 3 + 6 * Double(k), 4)) }
        let a = try run(scene, threads: 1), b = try run(scene, threads: 2)
        XCTAssertEqual(a.units.map(\.id), b.units.map(\.id))
        XCTAssertEqual(a.units.count, 4)
        XCTAssertEqual(a.units[0].id, UUIDv5.make(parts: ["unit", "row", a.addresses[a.units[0].addressIndex].id]))
    }

    /// Slices tile the footprint: areas sum to it within 0.1%, no overlaps over 0.1%, none empty.
    func assertTiles(_ run: LinkRun, building id: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let b = try XCTUnwrap(run.buildings.firstIndex { $0.id == id })
        let t = try run.frame.makeTransformer()
        func metric(_ f: Footprint) -> Footprint { f.mapRings { var r = $0; t.forward(&r); return r } }
        let context = GEOSContext()
        let whole = metric(run.footprint(ofBuilding: b))
        let slices = run.units.filter { $0.buildingIndex == b }.map { metric($0.footprint) }
        let sum = slices.map(\.area).reduce(0, +)
        XCTAssertEqual(sum / whole.area, 1, accuracy: 0.001, file: file, line: line)
        for s in slices { XCTAssertGreaterThan(s.area, 0, file: file, line: line) }
        for i in slices.indices {
            for j in slices.indices where j > i {
                let overlap = context.footprint(try context.intersection(context.geometry(slices[i]), context.geometry(slices[j]))).area
                XCTAssertLessThan(overlap, 0.001 * whole.area, file: file, line: line)
            }
        }
    }

    /// The slice areas that decide a split agree with GEOS's clipped slices, on concave footprints
    /// with holes and parts, axes at any angle, cuts anywhere (vertices on a cut included).
    func testSliceAreasAgreeWithGEOSClipping() throws {
        var rng = SeededGenerator(seed: 31)
        let context = GEOSContext()
        var compared = 0
        for trial in 0..<400 {
            let footprint = RandomFootprints.make(&rng)
            let angle = trial % 4 == 0 ? 0 : rng.uniform(0, .pi)
            let axis = Point2(x: cos(angle), y: sin(angle))
            let scene = MetricScene(addressPoints: [], addressKeys: [], footprints: FootprintStore([footprint]))
            var order = RowDetector.RowOrder(origin: Point2(x: 0, y: 0), axis: axis, start: 0, end: 0, width: 80, addresses: [], cuts: [])
            let along = footprint.points.map { order.rowCoordinates($0).x }
            order.start = along.min()!
            order.end = along.max()!
            let n = Int(rng.uniform(2, 6))
            order.cuts = (1..<n).map { _ in
                // Half the cuts on the half-metre grid, where vertices lie when the axis is x.
                let c = rng.uniform(order.start, order.end)
                return trial % 2 == 0 ? (c * 2).rounded() / 2 : c
            }.sorted()
            guard Set(order.cuts).count == order.cuts.count, order.cuts.first! > order.start - 10 else { continue }  // slices of no width
            order.addresses = Array(0..<n)
            let areas = TownhouseSplitter.sliceAreas(footprint: 0, order: order, scene: scene)
            let slices = try TownhouseSplitter.cut(footprint: 0, order: order, scene: scene, context: context)
            XCTAssertEqual(areas.count, slices.count)
            for (a, slice) in zip(areas, slices) {
                XCTAssertEqual(a, slice.area, accuracy: 1e-9 * footprint.area + 1e-9, "trial \(trial)")
            }
            XCTAssertEqual(areas.reduce(0, +), footprint.area, accuracy: 1e-9 * footprint.area)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 300)
    }
}
