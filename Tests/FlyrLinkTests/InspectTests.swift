import XCTest
@testable import FlyrLink

/// `flyr-link inspect` through the binary: geometry types, extent, CRS, the source's fields with
/// types, the mapping a run would use, and with --territory the features a run keeps in it, the
/// same in every format (and the same as the run's own counts).
final class InspectTests: XCTestCase {
    private func inspect(_ arguments: [String]) throws -> [String: String] {
        let r = try ProcessRunner.flyrLink(["inspect"] + arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        var lines: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            // (A key given twice, as `warning` may be, keeps every value, a line each.)
            let key = String(line[..<colon]), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            lines[key] = lines[key].map { $0 + "\n" + value } ?? value
        }
        return lines
    }

    func testInspectDescribesTheSourceInEveryFormat() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let territory = TestPaths.root.appendingPathComponent("data/helsinki/territory-north.geojson").path
        // What a run keeps in the territory: 143 addresses, 123 buildings.
        let out = dir.appendingPathComponent("out").path
        let run = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                              "--territory", territory, "--out", out, "--only", "links", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let counts = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any])?["counts"] as? [String: Any])
        XCTAssertEqual(counts["addresses"] as? Int, 143)
        XCTAssertEqual(counts["buildings"] as? Int, 123)

        var sources: [(format: String, addresses: String, buildings: String)] = [("GeoJSON", TestPaths.helsinkiAddresses, TestPaths.helsinkiBuildings)]
        for (format, ext) in [("FlatGeobuf", "fgb"), ("GPKG", "gpkg"), ("ESRI Shapefile", "shp")] {
            let a = dir.appendingPathComponent("addresses.\(ext)").path, b = dir.appendingPathComponent("buildings.\(ext)").path
            try ProcessRunner.ogr2ogr(["-f", format, a, TestPaths.helsinkiAddresses])
            try ProcessRunner.ogr2ogr(["-f", format, b, TestPaths.helsinkiBuildings])
            sources.append((format, a, b))
        }
        for s in sources {
            let a = try inspect([s.addresses, "--role", "addresses", "--territory", territory])
            XCTAssertEqual(a["geometry"], "Point 1377", s.format)
            XCTAssertEqual(a["features"], "1377 (1377 with a geometry)", s.format)
            XCTAssertEqual(a["inside territory"], "143", s.format)
            XCTAssertEqual(a["extent"]?.hasPrefix("24.9351766, 60.1641557 - 24.9534009, 60.1790399 (x, y in "), true, "\(s.format): \(a["extent"] ?? "")")
            // Shapefile names are cut to 10 characters (addr:house…) and map to nothing by default.
            if s.format == "ESRI Shapefile" {
                XCTAssertEqual(a["columns"]?.contains("addr_house (String)"), true, a["columns"] ?? "")
                XCTAssertEqual(a["fields"]?.contains("not found: house_number, street_name"), true, a["fields"] ?? "")
                let warnings = a["warning"]?.split(separator: "\n") ?? []
                XCTAssertEqual(warnings.count, 2, a["warning"] ?? "")
                XCTAssertEqual(warnings.first?.hasSuffix("the source has addr_house: pass --address-field house_number=addr_house"), true, a["warning"] ?? "")
                XCTAssertEqual(warnings.last?.hasSuffix("the source has addr_stree: pass --address-field street_name=addr_stree"), true, a["warning"] ?? "")
            } else {
                XCTAssertEqual(a["columns"]?.contains("addr:housenumber (String)"), true, "\(s.format): \(a["columns"] ?? "")")
                XCTAssertEqual(a["fields"]?.hasPrefix("house_number=addr:housenumber, id=id"), true, "\(s.format): \(a["fields"] ?? "")")
                XCTAssertNil(a["warning"], s.format)
            }
            let b = try inspect([s.buildings, "--territory", territory])
            XCTAssertEqual(b["inside territory"], "123", s.format)
            XCTAssertEqual(b["features"], "494 (494 with a geometry)", s.format)
            let types = b["geometry"] ?? ""
            XCTAssertTrue(types.contains("Polygon "), "\(s.format): \(types)")
        }
        // Without a territory, no count inside.
        XCTAssertNil(try inspect([TestPaths.helsinkiAddresses, "--role", "addresses"])["inside territory"])
    }

    /// GeoParquet: the row groups outside the territory are not read, and the count inside is a run's.
    func testInspectCountsGeoParquetInsideTheTerritoryAsARunDoes() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let territory = dir.appendingPathComponent("t.geojson").path
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[10.205,56.152],[10.215,56.152],[10.215,56.157],[10.205,56.157],[10.205,56.152]]]}}]}"#
            .write(toFile: territory, atomically: true, encoding: .utf8)
        let addresses = TestPaths.fixture("city2k/addresses.zstd.parquet"), buildings = TestPaths.fixture("city2k/buildings.snappy.parquet")
        let out = dir.appendingPathComponent("out").path
        let run = try ProcessRunner.flyrLink(["run", "--buildings", buildings, "--addresses", addresses, "--territory", territory,
                                              "--out", out, "--only", "links", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let counts = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any])?["counts"] as? [String: Any])
        let a = try inspect([addresses, "--role", "addresses", "--territory", territory])
        XCTAssertEqual(a["inside territory"], "\(counts["addresses"] as! Int)")
        XCTAssertGreaterThan(counts["addresses"] as! Int, 100)
        XCTAssertLessThan(counts["addresses"] as! Int, 2092 / 2)
        XCTAssertEqual(a["columns"]?.hasPrefix("id (string), house_number (string), street_name (string)"), true, a["columns"] ?? "")
        let b = try inspect([buildings, "--territory", territory])
        XCTAssertEqual(b["inside territory"], "\(counts["buildings"] as! Int)")
    }
}
