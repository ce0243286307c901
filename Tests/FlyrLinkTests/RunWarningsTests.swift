import XCTest
@testable import FlyrLink

/// Runs that succeed but are probably not what the user meant say so: one stderr line per
/// warning (`flyr-link: warning: …`, with or without --quiet) and the same in report.json's
/// `warnings` (`{code, message}`), through the binary on real data.
final class RunWarningsTests: XCTestCase {
    private struct Outcome {
        var result: ProcessResult
        var warnings: [[String: String]]
        var out: String
        var stderrWarnings: [String] { result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("flyr-link: warning: ") } }
        var codes: [String] { warnings.map { $0["code"]! } }
    }

    private func run(_ arguments: [String]) throws -> Outcome {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let r = try ProcessRunner.flyrLink(["run"] + arguments + ["--out", out, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as! [String: Any]
        let warnings = try XCTUnwrap(report["warnings"] as? [[String: String]], "report.json has a warnings list")
        let outcome = Outcome(result: r, warnings: warnings, out: out)
        // Every warning is on stderr, in the report's order, and stderr holds nothing else.
        XCTAssertEqual(outcome.stderrWarnings, warnings.map { "flyr-link: warning: \($0["message"]!)" })
        XCTAssertEqual(r.stderr.split(separator: "\n").count, warnings.count, r.stderr)
        return outcome
    }

    func testTheHelsinkiDemoHasNoWarnings() throws {
        let o = try run([TestPaths.root.appendingPathComponent("pipelines/helsinki.toml").path])
        XCTAssertEqual(o.warnings, [])
        XCTAssertEqual(o.result.stderr, "")
    }

    /// ogr2ogr cuts field names to 10 characters in a Shapefile: `house_number` becomes
    /// `house_numb`, which no default recognises. The warning names it and the flag.
    func testKeyFieldsUnmappedInAShapefileAreNamedWithTheFlagThatMapsThem() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let shp = dir.appendingPathComponent("addresses.shp").path
        try ProcessRunner.ogr2ogr(["-f", "ESRI Shapefile", shp, TestPaths.rowsAddresses])
        let o = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", shp, "--height-unit", "ft"])
        XCTAssertEqual(o.codes, ["unmapped_field", "unmapped_field"])
        XCTAssertTrue(o.warnings[0]["message"]!.hasPrefix("addresses: no house numbers read (no field mapped to house_number)"), o.warnings[0]["message"]!)
        XCTAssertTrue(o.warnings[0]["message"]!.hasSuffix("the source has house_numb: pass --address-field house_number=house_numb"), o.warnings[0]["message"]!)
        XCTAssertTrue(o.warnings[1]["message"]!.hasSuffix("the source has street_nam: pass --address-field street_name=street_nam"), o.warnings[1]["message"]!)
        let unmappedLinks = try OutputFiles.csv(o.out + "/links.csv")

        // As the warning says: mapped, no warning, and the run links as from the original file.
        let mapped = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", shp, "--height-unit", "ft",
                              "--address-field", "house_number=house_numb", "--address-field", "street_name=street_nam"])
        XCTAssertEqual(mapped.warnings, [])
        let original = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses, "--height-unit", "ft"])
        let mappedLinks = try OutputFiles.csv(mapped.out + "/links.csv"), originalLinks = try OutputFiles.csv(original.out + "/links.csv")
        XCTAssertEqual(mappedLinks.map { $0["building_id"]! + $0["address_id"]! }, originalLinks.map { $0["building_id"]! + $0["address_id"]! })
        XCTAssertGreaterThan(originalLinks.filter { !$0["unit_id"]!.isEmpty }.count, 0, "rows are split with house numbers")
        XCTAssertEqual(unmappedLinks.filter { !$0["unit_id"]!.isEmpty }.count, 0, "and none without")
    }

    func testFieldNamesThatLookLikeAHouseNumberOrAStreet() {
        for name in ["addr_house", "addr:housenumber", "house_numb", "HUSNR", "hausnummer", "number", "HouseNum"] {
            XCTAssertTrue(RunWarnings.looksLike(.houseNumber, name), name)
        }
        for name in ["addr_stree", "street_nam", "STREET", "vejnavn", "road_name", "strasse"] {
            XCTAssertTrue(RunWarnings.looksLike(.streetName, name), name)
        }
        for name in ["id", "postal_cod", "unit", "locality", "district", "betegnelse"] {
            XCTAssertFalse(RunWarnings.looksLike(.houseNumber, name), name)
            XCTAssertFalse(RunWarnings.looksLike(.streetName, name), name)
        }
    }

    /// A wrong --addresses-crs puts the points elsewhere on the planet: every address unlinked,
    /// exit 0 — and now two warnings saying so.
    func testAWrongCRSSaysTheLayersDoNotOverlapAndMostAddressesAreUnlinked() throws {
        let o = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses, "--addresses-crs", "EPSG:3857",
                         "--height-unit", "ft"])
        XCTAssertEqual(o.codes, ["extents_disjoint", "many_unlinked"])
        XCTAssertTrue(o.warnings[0]["message"]!.hasSuffix("do not overlap: is a CRS wrong? (--addresses-crs, --buildings-crs)"), o.warnings[0]["message"]!)
        XCTAssertEqual(o.warnings[1]["message"], "addresses: 320 of 320 unlinked (100%; most common reason: no_building_within_max_distance)")
    }

    /// Most of a layer rejected: the share, the most common reason and where to look.
    func testMostOfALayerRejectedIsWarnedOf() throws {
        let dir = TestPaths.temporaryDirectory(self)
        // The la-venice addresses, two of every three given as lines.
        let source = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestPaths.rowsAddresses))) as! [String: Any]
        var features = source["features"] as! [[String: Any]]
        for i in features.indices where i % 3 != 0 {
            let xy = (features[i]["geometry"] as! [String: Any])["coordinates"] as! [Double]
            features[i]["geometry"] = ["type": "LineString", "coordinates": [xy, [xy[0] + 0.0001, xy[1]]]]
        }
        let path = dir.appendingPathComponent("addresses.geojson").path
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(to: URL(fileURLWithPath: path))
        let o = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", path, "--height-unit", "ft"])
        XCTAssertEqual(o.codes, ["many_rejected"])
        XCTAssertEqual(o.warnings[0]["message"],
                       "addresses: 213 of 320 features rejected (67%; most common: 213×: geometry is a LineString; an address must be a point; see rejects.csv)")
    }

    /// la_dev's `height` is in feet: warned of without --height-unit; with `ft` written in metres.
    func testHeightsInFeetAreWarnedOfAndConvertedWithHeightUnitFt() throws {
        let plain = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses])
        XCTAssertEqual(plain.codes, ["height_in_feet"])
        XCTAssertTrue(plain.warnings[0]["message"]!.hasSuffix("pass --height-unit ft to write them in metres, or --height-unit m if they are metres"))
        let feet = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses, "--height-unit", "ft"])
        XCTAssertEqual(feet.warnings, [])
        let metres = try run(["--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses, "--height-unit", "m"])
        XCTAssertEqual(metres.warnings, [], "a unit given is not second-guessed")

        var source: [String: Double] = [:]
        for f in try OutputFiles.geojson(TestPaths.rowsBuildings) {
            let p = OutputFiles.properties(f)
            if let h = p["height"] as? Double { source[p["id"] as! String] = h }
        }
        XCTAssertGreaterThan(source.count, 500)
        for (dir, scale) in [(plain.out, 1.0), (feet.out, 0.3048)] {
            for name in ["buildings.geojson", "features.geojson"] {
                var checked = 0
                for f in try OutputFiles.geojson(dir + "/" + name) {
                    let p = OutputFiles.properties(f)
                    guard let id = p["building_id"] as? String ?? p["id"] as? String, let h = source[id] else { continue }
                    XCTAssertEqual(p["height_m"] as! Double, h * scale, accuracy: 0.005, "\(name) \(id)")
                    checked += 1
                }
                XCTAssertGreaterThan(checked, 500, name)
            }
        }
        // The links do not depend on the unit.
        XCTAssertEqual(try String(contentsOfFile: plain.out + "/links.csv", encoding: .utf8),
                       try String(contentsOfFile: feet.out + "/links.csv", encoding: .utf8))
    }
}

extension RunWarningsTests {
    /// A snapshot's version carries the run's warnings in its report.json, and says them on stderr.
    func testASnapshotSaysItsWarningsToo() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let territory = dir.appendingPathComponent("t.geojson").path
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[-119,33],[-118,33],[-118,35],[-119,35],[-119,33]]]}}]}"#
            .write(toFile: territory, atomically: true, encoding: .utf8)
        let root = dir.appendingPathComponent("root").path
        let campaign = "3d6f0a52-8c1e-5b7a-9f4d-2e8c6a1b0d93"
        let r = try ProcessRunner.flyrLink(["snapshot", "--campaign", campaign, "--territory", territory, "--buildings", TestPaths.rowsBuildings,
                                            "--addresses", TestPaths.rowsAddresses, "--root", root, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(root)/\(campaign)/current/report.json"))) as! [String: Any]
        let warnings = try XCTUnwrap(report["warnings"] as? [[String: String]])
        XCTAssertEqual(warnings.map { $0["code"]! }, ["height_in_feet"])
        XCTAssertEqual(r.stderr, "flyr-link: warning: \(warnings[0]["message"]!)\n")
    }
}
