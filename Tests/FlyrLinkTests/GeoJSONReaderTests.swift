import XCTest
import SyntheticCity
@testable import FlyrLink

/// The project's GeoJSON reader gives the same records as GDAL's GeoJSON driver.
final class GeoJSONReaderTests: XCTestCase {
    func assertSameAsGDAL(_ path: String, role: LayerRole, mapping: FieldMapping = FieldMapping(),
                          file: StaticString = #filePath, line: UInt = #line) throws {
        let spec = SourceSpec(location: path)
        XCTAssertTrue(GeoJSONSourceReader.handles(spec), file: file, line: line)
        let ours = try GeoJSONSourceReader.read(spec, role: role, mapping: mapping)
        let gdal = try GDALSourceReader.read(spec, role: role, mapping: mapping)
        XCTAssertEqual(ours.records.count, gdal.records.count, file: file, line: line)
        XCTAssertEqual(ours.resolvedFields, gdal.resolvedFields, file: file, line: line)
        for (a, b) in zip(ours.records, gdal.records) {
            XCTAssertEqual(a.ordinal, b.ordinal, file: file, line: line)
            XCTAssertEqual(a.geometry, b.geometry, "row \(a.ordinal)", file: file, line: line)
            for (x, y) in zip(a.values, b.values) where x != y {
                // Numbers may be written differently (12.50 vs 12.5): they must be the same number.
                XCTAssertEqual(x.flatMap(Double.init), y.flatMap(Double.init), "row \(a.ordinal): \(x ?? "nil") vs \(y ?? "nil")", file: file, line: line)
                XCTAssertNotNil(x.flatMap(Double.init), "row \(a.ordinal): \(x ?? "nil") vs \(y ?? "nil")", file: file, line: line)
            }
        }
        XCTAssertEqual(CRSInfo.isWGS84(ours.crsDefinition!), CRSInfo.isWGS84(gdal.crsDefinition ?? "EPSG:4326"), file: file, line: line)
    }

    func testHelsinkiSample() throws {
        try assertSameAsGDAL(TestPaths.helsinkiBuildings, role: .buildings)
        try assertSameAsGDAL(TestPaths.helsinkiAddresses, role: .addresses)
    }

    func testDanishDataWithACRSMemberAnd3DPolygons() throws {
        let mapping = FieldMapping(address: ["id": "husnummer_id"], building: ["id": "ID_LOKALID"])
        try assertSameAsGDAL(try TestPaths.sharedData("dk/buildings.geojson"), role: .buildings, mapping: mapping)
        try assertSameAsGDAL(try TestPaths.sharedData("dk/addresses_with_truth.geojson"), role: .addresses, mapping: mapping)
        let table = try GeoJSONSourceReader.read(SourceSpec(location: try TestPaths.sharedData("dk/buildings.geojson")), role: .buildings, mapping: mapping)
        XCTAssertEqual(CRSInfo.authorityName(table.crsDefinition!), "EPSG:25832")
    }

    func testSyntheticCityAndBadRows() throws {
        let dir = TestPaths.temporaryDirectory(self)
        try generateCity(config: CityConfig(buildings: 500, seed: 3), to: dir)
        try assertSameAsGDAL(dir.appendingPathComponent("buildings.geojson").path, role: .buildings)
        try assertSameAsGDAL(dir.appendingPathComponent("addresses.geojson").path, role: .addresses)
        try assertSameAsGDAL(TestPaths.fixture("bad_buildings.geojson"), role: .buildings)
        try assertSameAsGDAL(TestPaths.fixture("bad_addresses.geojson"), role: .addresses)
    }

    func testGeoJSONSeqAndMalformedFiles() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let seq = dir.appendingPathComponent("a.geojsonl")
        try ProcessRunner.ogr2ogr(["-f", "GeoJSONSeq", seq.path, TestPaths.helsinkiAddresses])
        try assertSameAsGDAL(seq.path, role: .addresses)

        let broken = dir.appendingPathComponent("broken.geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"x"},"geometry":{"type":"Point","coordinates":[1,"#
            .write(to: broken, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try GeoJSONSourceReader.read(SourceSpec(location: broken.path), role: .addresses, mapping: FieldMapping())) { error in
            XCTAssertTrue("\(error)".contains("invalid JSON at byte"), "\(error)")
            XCTAssertTrue("\(error)".contains("broken.geojson"), "\(error)")
        }
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", broken.path,
                                            "--out", dir.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    }

    /// The scanner's fast decimal path gives strtod's double for every plain decimal it accepts.
    func testFastDecimalsEqualStrtod() {
        var rng = SeededGenerator(seed: 3)
        var samples = ["0", "-0", "0.1", "10.20023685", "-179.999999999999", "56.150075680000", "123456789012345",
                       "1234567890123456", "0.0000000000000000000001", "9007199254740993", "1e5", "-1.5E-3", "2.5"]
        for _ in 0..<20_000 {
            let digits = rng.int(1, 16), point = rng.int(0, digits)
            var text = rng.chance(0.5) ? "-" : ""
            for k in 0..<digits {
                if k == point && k > 0 { text += "." }
                text += String(rng.int(0, 9))
            }
            samples.append(text)
        }
        var fast = 0
        for text in samples {
            let bytes = Array(text.utf8)
            let viaStrtod = strtod(text, nil)
            bytes.withUnsafeBytes { raw in
                if let d = GeoJSONScanner.exactDecimal(raw, 0..<raw.count) {
                    fast += 1
                    XCTAssertEqual(d.bitPattern, viaStrtod.bitPattern, text)
                }
            }
        }
        XCTAssertGreaterThan(fast, 15_000)
    }
}
