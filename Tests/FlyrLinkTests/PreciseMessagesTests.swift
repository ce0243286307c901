import XCTest
@testable import FlyrLink

/// Messages that say what is wrong (issue 43, item 13): a stray out-of-range row of a CSV without
/// a CRS, a GeoPackage run's report, an empty GeoParquet file, a redirect loop, a negative tile, a
/// symbolic-link loop.
final class PreciseMessagesTests: XCTestCase {
    /// The first `count` Helsinki addresses as `id,lon,lat` lines (no CRS: a CSV has none).
    func helsinkiCSVLines(_ count: Int) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPaths.helsinkiAddresses))
        let features = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["features"] as? [[String: Any]])
        return features.prefix(count).map { f in
            let id = OutputFiles.properties(f)["id"] as! String
            let c = (f["geometry"] as! [String: Any])["coordinates"] as! [Double]
            return "\(id),\(c[0]),\(c[1])"
        }
    }

    func testAStrayOutOfRangeRowOfACSVWithoutCRSIsThatRowsReject() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let lines = try helsinkiCSVLines(200)
        for (name, bad, reason) in [("far.csv", "far,1e308,60.17", "coordinates (1e+308, 60.17) outside the valid range of its CRS"),
                                    ("north.csv", "north,24.94,1000", "coordinates (24.94, 1000.0) outside the valid range of its CRS")] {
            let csv = dir.appendingPathComponent(name)
            try (["id,lon,lat"] + lines.prefix(50) + [bad] + lines.dropFirst(50)).joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
            let before = try Data(contentsOf: csv)
            let out = dir.appendingPathComponent("out-\(name)").path
            let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", csv.path, "--out", out, "--quiet"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let rejects = try OutputFiles.csv("\(out)/rejects.csv").filter { $0["layer"] == "addresses" }
            XCTAssertEqual(rejects.map { "\($0["source_row"]!) \($0["id"]!) \($0["reason"]!)" }, ["51 \(bad.prefix { $0 != "," }) \(reason)"], name)
            XCTAssertTrue(r.stdout.contains("201 addresses"), r.stdout)
            XCTAssertEqual(try Data(contentsOf: csv), before)
        }
        // Many rows out of range beside lon/lat ones: one line that says which and how many.
        let mixed = dir.appendingPathComponent("mixed.csv")
        try (["id,lon,lat"] + lines.prefix(20) + (0..<10).map { "m\($0),720000,617000\($0)" }).joined(separator: "\n")
            .write(to: mixed, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out-mixed").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", mixed.path, "--out", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "flyr-link: error: addresses: \(mixed.path) has no CRS, and 10 of its first 30 coordinates are not longitude/latitude "
                       + "(the first: 720000.0, 6170000.0) while 20 are: fix those rows, or give its CRS with --addresses-crs\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testAGeoPackageRunNamesNoReportPageItDidNotDraw() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let gpkg = dir.appendingPathComponent("x.gpkg").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses, "--out", gpkg])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("  outputs: \(gpkg)\n"), r.stdout)
        XCTAssertFalse(r.stdout.contains("report:"), r.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["x.gpkg"])
    }

    /// GeoPandas writes an empty frame as one row group of 0 rows whose chunks have a dictionary
    /// page and no data page (data_page_offset 0): Fixtures/empty_geopandas.parquet.
    func testAnEmptyGeoParquetFromGeoPandasIsZeroRowsNotCorrupt() throws {
        let path = TestPaths.fixture("empty_geopandas.parquet")
        let table = try GeoParquetSourceReader.read(SourceSpec(location: path), role: .addresses, mapping: FieldMapping(), lonLatBox: nil)
        XCTAssertEqual(table.recordCount, 0)
        let r = try ProcessRunner.flyrLink(["inspect", path, "--role", "addresses"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("features: 0 (0 with a geometry)"), r.stdout)
        // A run with it says nothing of a corrupt file (whether an empty layer is refused is its own rule).
        let run = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", path,
                                              "--out", TestPaths.temporaryDirectory(self).appendingPathComponent("out").path, "--quiet"])
        XCTAssertFalse(run.stderr.contains("column chunk") || run.stderr.contains("outside the data area"), run.stderr)
    }

    func testARedirectLoopIsSaidToBeOne() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: dir.path, dir: dir, test: self)
        let url = "\(server.base)/loop/buildings.parquet"
        let r = try ProcessRunner.flyrLink(["inspect", url])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "flyr-link: error: buildings: \(url): redirected more than \(HTTPTransfer.maxRedirects) times: a redirect loop (check the URL)\n")
        // Not retried: a loop is no passing failure.
        XCTAssertEqual(LoggedRequest.read(server.log).count, HTTPTransfer.maxRedirects + 1)
    }

    func testANegativeTileIsSaidToBeOne() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = ["--out", dir.appendingPathComponent("x").path]
        for (pass, extra) in [("measures", out), ("link", out + ["--measures", dir.appendingPathComponent("m.json").path]), ("outputs", [])] {
            let r = try ProcessRunner.flyrLink(["tile", pass, "--plan", dir.appendingPathComponent("plan.json").path, "--tile", "-1"] + extra)
            XCTAssertEqual(r.status, 64, pass)
            XCTAssertEqual(r.stderr, "flyr-link: error: --tile must be ≥ 0 (see flyr-link tile \(pass) --help)\n")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testASymbolicLinkLoopIsSaidToBeOne() throws {
        let dir = TestPaths.temporaryDirectory(self)
        for name in ["a.geojson", "a.fgb", "a.parquet", "a.gpkg"] {
            let a = dir.appendingPathComponent(name).path, b = dir.appendingPathComponent("b-" + name).path
            try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
            try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
            let r = try ProcessRunner.flyrLink(["inspect", a])
            XCTAssertEqual(r.status, 1, name)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasSuffix("\(a): is a symbolic-link loop (too many levels of symbolic links): make the link point at a file\n"), r.stderr)
        }
    }
}
