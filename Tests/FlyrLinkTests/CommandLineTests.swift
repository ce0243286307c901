import XCTest
@testable import FlyrLink

/// End to end through the built binary, as a user runs it.
final class CommandLineTests: XCTestCase {
    func testPipelineFileRunsTheHelsinkiDemo() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out").path
        // Flags override the file's keys (here the output directory).
        let r = try ProcessRunner.flyrLink(["run", TestPaths.root.appendingPathComponent("pipelines/helsinki.toml").path, "--out", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("gold_exact:"), r.stdout)
        XCTAssertEqual(r.stderr, "", "no progress when stderr is not a terminal")
        for name in RunWriter.files { XCTAssertTrue(FileManager.default.fileExists(atPath: "\(out)/\(name)"), name) }
        let links = try OutputFiles.csv("\(out)/links.csv")
        XCTAssertTrue(links.allSatisfy { $0["campaign_id"] == "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b" })
    }

    func testPipelineFileFieldMappingAndCRS() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let file = dir.appendingPathComponent("dk.toml")
        let toml = """
        buildings = "\(try TestPaths.sharedData("dk/buildings.geojson"))"
        addresses = "\(try TestPaths.sharedData("dk/addresses_with_truth.geojson"))"
        out = "out"
        max_distance = 25
        threads = 1

        [address_fields]
        id = "husnummer_id"
        formatted = "betegnelse"

        [building_fields]
        id = "ID_LOKALID"
        """
        try toml.write(to: file, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.flyrLink(["run", file.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let links = try OutputFiles.csv(dir.appendingPathComponent("out/links.csv").path)
        XCTAssertEqual(links.count, 587)
        XCTAssertTrue(links.allSatisfy { $0["address_id"]!.count == 36 && Int($0["building_id"]!) != nil })
        let features = try OutputFiles.geojson(dir.appendingPathComponent("out/addresses.geojson").path)
        XCTAssertTrue((OutputFiles.properties(features[0])["formatted"] as? String)?.contains(",") ?? false)
    }

    func testInspectReportsWhatItReads() throws {
        let r = try ProcessRunner.flyrLink(["inspect", TestPaths.helsinkiAddresses, "--role", "addresses"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("features: 1377"), r.stdout)
        XCTAssertTrue(r.stdout.contains("house_number=addr:housenumber"), r.stdout)
    }

    func testPipelineFileErrorsNameTheFile() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let file = dir.appendingPathComponent("bad.toml")
        try "buildings = \"a.geojson\"\nmax_distanse = 3\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.flyrLink(["run", file.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("unknown key 'max_distanse'"), r.stderr)
        try "buildings = [\n".write(to: file, atomically: true, encoding: .utf8)
        let r2 = try ProcessRunner.flyrLink(["run", file.path])
        XCTAssertEqual(r2.status, 1)
        XCTAssertTrue(r2.stderr.contains("invalid TOML"), r2.stderr)
        XCTAssertEqual(r2.stderr.split(separator: "\n").count, 1)
    }

    /// Found by the pipeline fuzz target: toml++ (under TOMLKit) asserts, and so aborts the whole
    /// process, on a table header whose key starts with another character, and TOMLKit hands it
    /// the text cut at a NUL, and on `a = [}`. These are one line's error now, from `run` and
    /// `snapshot` alike.
    func testTOMLTheParserWouldAbortOnIsOneLinesError() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let file = dir.appendingPathComponent("bad.toml")
        let found = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("fuzz/pipeline-table-header-nul.toml")))
        let cases: [(Data, String)] = [(found, "table header"), (Data("[{".utf8), "table header"),
                                       (Data("a = 1\n[\n".utf8), "table header"), (Data("[[ =x]]\n".utf8), "table header"),
                                       (Data("x = \"a\u{0}b\"\n".utf8), "NUL character")]
        for (bytes, what) in cases {
            try bytes.write(to: file)
            for load in [{ _ = try PipelineFile.load(file.path) }, { _ = try SnapshotPipelineFile.load(file.path) }] as [() throws -> Void] {
                XCTAssertThrowsError(try load()) { error in
                    let message = (error as? InputError)?.message ?? "\(error)"
                    XCTAssertTrue(message.contains("invalid TOML") && message.contains(what), message)
                }
            }
            let r = try ProcessRunner.flyrLink(["run", file.path])
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        // Others toml++ aborts on are caught by parsing in a child process first.
        let braces = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("fuzz/pipeline-array-brace.toml")))
        for bytes in [braces, Data("a = [}\n".utf8)] {
            try bytes.write(to: file)
            XCTAssertThrowsError(try PipelineFile.load(file.path)) { error in
                XCTAssertTrue(((error as? InputError)?.message ?? "").contains("invalid TOML"), "\(error)")
            }
            let r = try ProcessRunner.flyrLink(["snapshot", file.path])
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("invalid TOML"), r.stderr)
        }
        // Text inside strings, multi-line strings and comments is not judged.
        let fine = "a = \"[{\"\nb = \"\"\"\n[{\n\"\"\"\n# [{\nc = '''\n[\n'''\n[t]\nd = 1\n"
        XCTAssertNil(PipelineFile.tomlAbortCheck(fine))
        try fine.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertNoThrow(try PipelineFile.parse(file.path))
    }

    func testOnlyLinksWritesTheLinksTable() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", out, "--only", "links", "--threads", "1", "--max-distance", "25", "--units", "none"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        XCTAssertEqual(files, ["links.csv", "rejects.csv", "report.json", "report.html", ".flyr-link-output"])
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(out)/report.json"))) as! [String: Any]
        XCTAssertEqual((report["options"] as? [String: String])?["max_distance_m"], "25")
    }

    /// GDAL and libpq are bound when first used: a run with the project's own readers and file
    /// outputs never loads them; a run reading a format only GDAL reads does. (The dynamic
    /// loader's own trace, LD_DEBUG=files, names every library it loads.)
    func testGDALLibpqAndPROJLoadOnlyWhenUsed() throws {
        let dir = TestPaths.temporaryDirectory(self)
        func loaded(buildings: String) throws -> String {
            let out = dir.appendingPathComponent("out-\(UUID().uuidString)").path
            let r = try ProcessRunner.flyrLink(["run", "--buildings", buildings, "--addresses", TestPaths.helsinkiAddresses,
                                                "--out", out, "--quiet"], environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stderr
        }
        let own = try loaded(buildings: TestPaths.helsinkiBuildings)
        XCTAssertTrue(own.contains("libgeos_c"), "the trace lists the libraries loaded")
        XCTAssertFalse(own.contains("libgdal"), "a GeoJSON run loaded GDAL")
        XCTAssertFalse(own.contains("libpq"), "a file run loaded libpq")
        XCTAssertFalse(own.contains("libproj"), "a run in lon/lat loaded PROJ")
        XCTAssertFalse(own.contains("libcurl"), "a run of local files loaded libcurl")
        let projected = dir.appendingPathComponent("b.fgb").path
        try ProcessRunner.ogr2ogr(["-f", "FlatGeobuf", "-t_srs", "EPSG:3067", projected, TestPaths.helsinkiBuildings])
        let fgb = try loaded(buildings: projected)
        XCTAssertTrue(fgb.contains("libproj"), "a run in EPSG:3067 needs PROJ")
        XCTAssertFalse(fgb.contains("libgdal"), "a FlatGeobuf run is read by the project's own reader")
        let gpkg = dir.appendingPathComponent("b.gpkg").path
        try ProcessRunner.ogr2ogr(["-f", "GPKG", gpkg, TestPaths.helsinkiBuildings])
        XCTAssertTrue(try loaded(buildings: gpkg).contains("libgdal"), "a GeoPackage run is read by GDAL")
    }

    /// A value outside an option's closed set: ArgumentParser's one line naming the value and the
    /// accepted ones, exit 64, nothing written.
    func testABadValueOfAClosedSetIsOneLineNamingTheAcceptedValues() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let run = ["run", "--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses, "--out", dir.appendingPathComponent("o").path]
        let cases: [([String], String)] = [
            (run + ["--format", "shp"], "The value 'shp' is invalid for '--format <format>'. Please provide one of 'dir', 'gpkg', 'fgb' or 'parquet' (see flyr-link run --help)"),
            (run + ["--only", "rejects"], "The value 'rejects' is invalid for '--only <only>'. Please provide one of 'all' and 'links' (see flyr-link run --help)"),
            (run + ["--matcher", "best"], "The value 'best' is invalid for '--matcher <matcher>'. Please provide one of 'flyr' and 'naive' (see flyr-link run --help)"),
            (run + ["--height-unit", "yd"], "The value 'yd' is invalid for '--height-unit <height-unit>'. Please provide one of 'm' and 'ft' (see flyr-link run --help)"),
            (run + ["--parquet-reader", "duckdb"],
             "The value 'duckdb' is invalid for '--parquet-reader <parquet-reader>'. Please provide one of 'auto', 'gdal' or 'flyr' (see flyr-link run --help)"),
            (["plan", "--out", dir.appendingPathComponent("plan.json").path, "--only", "rejects"],
             "The value 'rejects' is invalid for '--only <only>'. Please provide one of 'all' and 'links' (see flyr-link plan --help)"),
            (["inspect", TestPaths.rowsAddresses, "--role", "territory"],
             "The value 'territory' is invalid for '--role <role>'. Please provide one of 'buildings' and 'addresses' (see flyr-link inspect --help)"),
        ]
        for (arguments, message) in cases {
            let r = try ProcessRunner.flyrLink(arguments)
            XCTAssertEqual(r.status, 64, r.stderr)
            XCTAssertEqual(r.stderr, "flyr-link: error: \(message)\n")
            XCTAssertEqual(r.stdout, "")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "nothing written")
    }

    /// A pipeline file's keys are strings, checked by the run's options as before (exit 1); a flag
    /// overrides the key.
    func testAPipelineFilesBadValueIsTheRunsOneLine() throws {
        let dir = TestPaths.temporaryDirectory(self)
        for (key, bad, good, message) in [("format", "shp", "dir", "format must be dir, gpkg, fgb or parquet, not 'shp'"),
                                          ("only", "rejects", "links", "only must be links (or all), not 'rejects'"),
                                          ("matcher", "best", "naive", "matcher must be flyr or naive, not 'best'"),
                                          ("units", "halves", "none", "units must be split or none, not 'halves'"),
                                          ("parquet_reader", "duckdb", "flyr", "parquet reader must be auto, gdal or flyr, not 'duckdb'"),
                                          ("height_unit", "yd", "ft", "height unit must be m or ft, not 'yd'")] {
            let file = dir.appendingPathComponent("\(key).toml")
            try """
            buildings = "\(TestPaths.rowsBuildings)"
            addresses = "\(TestPaths.rowsAddresses)"
            out = "out-\(key)"
            \(key) = "\(bad)"
            """.write(to: file, atomically: true, encoding: .utf8)
            let r = try ProcessRunner.flyrLink(["run", file.path, "--quiet"])
            XCTAssertEqual(r.status, 1, r.stderr)
            XCTAssertEqual(r.stderr, "flyr-link: error: \(message)\n")
            let flag = "--" + key.replacingOccurrences(of: "_", with: "-")
            let overridden = try ProcessRunner.flyrLink(["run", file.path, flag, good, "--quiet"])
            XCTAssertEqual(overridden.status, 0, "\(key): \(overridden.stderr)")
        }
    }

    func testUsageErrorsExitNonZero() throws {
        let r = try ProcessRunner.flyrLink(["run", "--buildings", "x", "--addresses", "y", "--out", "z", "--units", "halves"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("--units"), r.stderr)
        let r2 = try ProcessRunner.flyrLink(["run", "--addresses", TestPaths.helsinkiAddresses, "--out", "z"])
        XCTAssertEqual(r2.status, 1)
        XCTAssertTrue(r2.stderr.contains("no buildings source"), r2.stderr)
    }
}
