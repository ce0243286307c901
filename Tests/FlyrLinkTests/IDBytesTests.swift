import XCTest
@testable import FlyrLink

/// Ids are kept byte for byte (spaces, CR LF, quotes and commas) in every output format and in
/// PostGIS, and an id with a NUL byte is a reject with the same reason everywhere.
final class IDBytesTests: XCTestCase {
    static let addressIDs = [" x", "x", "a\r\nb", "q\"uote,comma"]
    static let buildingIDs = ["b", " b", "b\r\nq", "c,\"d\""]
    static let nulAddress = "nul\u{0}x", nulBuilding = "nul\u{0}b"
    static let nulReason = "id contains a NUL byte"

    /// A square building per id, 0.001° apart, each with an address at its centre; then a fifth
    /// building and address whose ids hold a NUL byte, and an address whose street does.
    func writeInputs(in dir: URL) throws -> (buildings: String, addresses: String) {
        var buildings: [[String: Any]] = [], addresses: [[String: Any]] = []
        for (k, (b, a)) in zip(Self.buildingIDs + [Self.nulBuilding], Self.addressIDs + [Self.nulAddress]).enumerated() {
            let x = 24.94 + Double(k) * 0.001, y = 60.17, d = 0.0001
            buildings.append(["type": "Feature", "properties": ["id": b],
                              "geometry": ["type": "Polygon", "coordinates": [[[x - d, y - d], [x + d, y - d], [x + d, y + d], [x - d, y + d], [x - d, y - d]]]]])
            addresses.append(["type": "Feature", "properties": ["id": a], "geometry": ["type": "Point", "coordinates": [x, y]]])
        }
        // Another text a format cannot hold: the row is rejected for it, not cut or fatal.
        addresses.append(["type": "Feature", "properties": ["id": "street", "addr:street": "Main\u{0}St"], "geometry": ["type": "Point", "coordinates": [24.94, 60.17]]])
        let b = dir.appendingPathComponent("buildings.geojson"), a = dir.appendingPathComponent("addresses.geojson")
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": buildings]).write(to: b)
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": addresses]).write(to: a)
        return (b.path, a.path)
    }

    func run(_ inputs: (buildings: String, addresses: String), out: String, _ extra: [String] = []) throws {
        let r = try ProcessRunner.flyrLink(["run", "--buildings", inputs.buildings, "--addresses", inputs.addresses, "--out", out, "--quiet",
                                            "--campaign", "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    /// A layer or table of a GDAL dataset, through ogr2ogr as GeoJSON (which keeps every byte).
    func gdalRows(_ path: String, _ layer: String) throws -> [[String: Any]] {
        let r = try ProcessRunner.run("/usr/bin/ogr2ogr", ["-f", "GeoJSON", "/vsistdout/", path, layer])
        XCTAssertEqual(r.status, 0, r.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return (object?["features"] as? [[String: Any]] ?? []).map(OutputFiles.properties)
    }

    func assertIDs(_ rows: [[String: Any]], _ column: String, _ expected: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(rows.compactMap { $0[column] as? String }.sorted(), expected.sorted(), what, file: file, line: line)
    }

    /// The links' (address, building) pairs expected: each address in its own building.
    static var pairs: [String] { zip(addressIDs, buildingIDs).map { "\($0.0)|\($0.1)" }.sorted() }

    func assertRejects(_ rows: [[String: Any]], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = rows.map { "\($0["layer"] as? String ?? "")|\($0["source_row"].map { "\($0)" } ?? "")|\($0["reason"] as? String ?? "")" }.sorted()
        XCTAssertEqual(found, ["addresses|5|\(Self.nulReason)", "addresses|6|street_name contains a NUL byte", "buildings|5|\(Self.nulReason)"],
                       what, file: file, line: line)
        XCTAssertEqual(rows.map { $0["id"] as? String ?? "" }.sorted(), ["", "", "street"], "\(what): a reject names no id with a NUL", file: file, line: line)
    }

    func testIDsAreKeptByteForByteInEveryFileFormat() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let inputs = try writeInputs(in: dir)
        let before = try OutputFiles.everyFile(dir)

        // The directory: CSV (RFC 4180 quoting) and GeoJSON.
        let plain = dir.appendingPathComponent("dir").path
        try run(inputs, out: plain)
        let links = try OutputFiles.csv("\(plain)/links.csv")
        XCTAssertEqual(links.map { "\($0["address_id"]!)|\($0["building_id"]!)" }.sorted(), Self.pairs)
        let csvText = try String(contentsOfFile: "\(plain)/links.csv", encoding: .utf8)
        XCTAssertTrue(csvText.contains(",\"a\r\nb\",") && csvText.contains(",\"q\"\"uote,comma\",") && csvText.contains(", x,"), csvText)
        assertIDs(try OutputFiles.geojson("\(plain)/addresses.geojson").map(OutputFiles.properties), "id", Self.addressIDs, "dir addresses")
        assertIDs(try OutputFiles.geojson("\(plain)/buildings.geojson").map(OutputFiles.properties), "id", Self.buildingIDs, "dir buildings")
        assertRejects(try OutputFiles.csv("\(plain)/rejects.csv"), "dir rejects.csv")

        // GeoPackage: the layers and the links and rejects tables.
        let gpkg = dir.appendingPathComponent("out.gpkg").path
        try run(inputs, out: gpkg, ["--format", "gpkg"])
        XCTAssertEqual(try gdalRows(gpkg, "links").map { "\($0["address_id"] as? String ?? "null")|\($0["building_id"] as? String ?? "null")" }.sorted(), Self.pairs)
        assertIDs(try gdalRows(gpkg, "addresses"), "id", Self.addressIDs, "gpkg addresses")
        assertIDs(try gdalRows(gpkg, "buildings"), "id", Self.buildingIDs, "gpkg buildings")
        assertRejects(try gdalRows(gpkg, "rejects"), "gpkg rejects")

        // FlatGeobuf and GeoParquet: their layers, and the same CSV files as the directory's.
        let fgb = dir.appendingPathComponent("fgb").path, parquet = dir.appendingPathComponent("parquet").path
        try run(inputs, out: fgb, ["--format", "fgb"])
        try run(inputs, out: parquet, ["--format", "parquet"])
        assertIDs(try gdalRows("\(fgb)/addresses.fgb", "addresses"), "id", Self.addressIDs, "fgb addresses")
        assertIDs(try gdalRows("\(fgb)/buildings.fgb", "buildings"), "id", Self.buildingIDs, "fgb buildings")
        for (layer, expected) in [("addresses", Self.addressIDs), ("buildings", Self.buildingIDs)] {
            let table = try GeoParquetSourceReader.read(SourceSpec(location: "\(parquet)/\(layer).parquet"), role: layer == "addresses" ? .addresses : .buildings,
                                                        mapping: FieldMapping(), lonLatBox: nil)
            XCTAssertEqual(table.records.compactMap { $0.values[0] }.sorted(), expected.sorted(), "parquet \(layer)")
        }
        for out in [fgb, parquet] {
            for name in ["links.csv", "rejects.csv"] {
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(name)")), try Data(contentsOf: URL(fileURLWithPath: "\(plain)/\(name)")), "\(out)/\(name)")
            }
        }
        XCTAssertEqual(try OutputFiles.everyFile(dir).filter { before[$0.key] != nil }, before, "the inputs are untouched")
    }

    func testIDsAreKeptByteForByteInPostGIS() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        let dir = TestPaths.temporaryDirectory(self)
        let inputs = try writeInputs(in: dir)
        let r = try ProcessRunner.flyrLink(["run", "--buildings", inputs.buildings, "--addresses", inputs.addresses, "--out", db,
                                            "--campaign", "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("6 addresses → 4 linked, 0 unlinked, 2 rejected"), r.stdout)
        XCTAssertEqual(try TestDatabase.query(db, "SELECT id FROM campaign_addresses").compactMap { $0[0] }.sorted(), Self.addressIDs.sorted())
        XCTAssertEqual(try TestDatabase.query(db, "SELECT a.id || '|' || l.building_id FROM building_address_links l JOIN campaign_addresses a ON a.id = l.address_id")
                        .compactMap { $0[0] }.sorted(), Self.pairs)
    }
}
