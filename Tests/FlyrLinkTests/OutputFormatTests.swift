import Foundation
import XCTest

/// `--format gpkg|fgb|parquet`: each read back by other tools (ogrinfo/ogr2ogr, GeoPandas and
/// DuckDB) and compared feature by feature with the GeoJSON and CSV of a directory run of the
/// same inputs; the same bytes for the same run; bad use refused in one line.
final class OutputFormatTests: XCTestCase {
    private let campaign = "0c7a1f52-3d4e-5b6a-8c9d-0e1f2a3b4c5d"

    /// A run of the townhouse sample (units, unlinked points, multipolygons) with `extra` options.
    @discardableResult
    private func run(_ out: String, _ extra: [String], threads: Int = 2) throws -> ProcessResult {
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses,
                                            "--campaign", campaign, "--height-unit", "ft", "--threads", String(threads),
                                            "--out", out, "--quiet"] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        return r
    }

    /// The directory run every other format is compared with.
    private func directoryRun() throws -> URL {
        let dir = TestPaths.temporaryDirectory(self).appendingPathComponent("dir")
        try run(dir.path, [])
        return dir
    }

    private static let geometryLayers = ["addresses", "buildings", "units", "features"]

    // MARK: GeoPackage

    func testGeoPackageHoldsEveryLayerAndTableWithTheDirectorysValues() throws {
        let dir = try directoryRun()
        let gpkg = TestPaths.temporaryDirectory(self).appendingPathComponent("campaign.gpkg").path
        try run(gpkg, [])  // the format from the extension
        let info = try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-so", gpkg])
        XCTAssertEqual(info.status, 0, info.stderr)
        for line in ["1: addresses (Point)", "2: buildings (Multi Polygon)", "3: units (Multi Polygon)", "4: features",
                     "5: links (None)", "6: rejects (None)", "7: report (None)", "8: flyr_link_output (None)"] {
            XCTAssertTrue(info.stdout.contains(line), "ogrinfo lists \(line): \(info.stdout)")
        }
        let summary = try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-al", "-so", gpkg])
        XCTAssertEqual(summary.status, 0, summary.stderr)
        let counts = Self.featureCounts(summary.stdout)
        for layer in Self.geometryLayers {
            let expected = try OutputFiles.geojson(dir.appendingPathComponent("\(layer).geojson").path)
            XCTAssertGreaterThan(expected.count, 0, layer)
            XCTAssertEqual(counts[layer], expected.count, "ogrinfo -al -so count of \(layer)")
            XCTAssertEqual(try Self.canonical(ogrGeoJSON(gpkg, layer: layer)), try Self.canonical(expected), "\(layer): features differ")
        }
        for table in ["links", "rejects"] {
            let rows = try OutputFiles.csv(dir.appendingPathComponent("\(table).csv").path)
            XCTAssertEqual(counts[table], rows.count, "ogrinfo -al -so count of \(table)")
            XCTAssertEqual(try Self.canonical(ogrGeoJSON(gpkg, layer: table)), Self.canonical(csvRows: rows), "\(table): rows differ")
        }
        XCTAssertGreaterThan(counts["links"] ?? 0, 0)
        // The report table: report.json without its wall times.
        let report = try ogrGeoJSON(gpkg, layer: "report")
        let text = try XCTUnwrap(OutputFiles.properties(try XCTUnwrap(report.first))["json"] as? String)
        var expected = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("report.json"))) as? [String: Any])
        expected["run"] = nil
        var options = try XCTUnwrap(expected["options"] as? [String: Any])
        options["format"] = "gpkg"
        expected["options"] = options
        let got = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(got as NSDictionary, expected as NSDictionary)
    }

    func testGeoPackageIsTheSameBytesWhateverTheThreadsAndReplacesItsOwnFile() throws {
        let tmp = TestPaths.temporaryDirectory(self)
        let gpkg = tmp.appendingPathComponent("c.gpkg").path
        try run(gpkg, [], threads: 1)
        let first = try Data(contentsOf: URL(fileURLWithPath: gpkg))
        Thread.sleep(forTimeInterval: 1.1)  // a timestamp would differ
        try run(gpkg, ["--format", "gpkg"], threads: 2)  // replaces its own GeoPackage, no --overwrite
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: gpkg)), first, "same run, same bytes")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["c.gpkg"], "no staging left")
    }

    func testGeoPackageNeverReplacesWhatFlyrLinkDidNotWrite() throws {
        let tmp = TestPaths.temporaryDirectory(self)
        func attempt(_ out: String, _ extra: [String] = []) throws -> ProcessResult {
            try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses,
                                        "--out", out, "--quiet"] + extra)
        }
        // A user's file, and a user's GeoPackage.
        let notes = tmp.appendingPathComponent("notes.gpkg").path
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let theirs = tmp.appendingPathComponent("theirs.gpkg").path
        try ProcessRunner.ogr2ogr(["-f", "GPKG", theirs, TestPaths.rowsBuildings])
        let theirBytes = try Data(contentsOf: URL(fileURLWithPath: theirs))
        let theirsRefused = try attempt(theirs)
        XCTAssertEqual(theirsRefused.status, 1)
        XCTAssertEqual(theirsRefused.stderr, "flyr-link: error: refusing to replace \(theirs): it is a GeoPackage flyr-link did not write (pass --overwrite to replace a GeoPackage)\n")
        // A file that is no GeoPackage: never, not even with --overwrite.
        for extra in [[], ["--overwrite"]] {
            let r = try attempt(notes, extra)
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stderr, "flyr-link: error: refusing to replace \(notes): it is not a GeoPackage (choose another path; a file that is not an output is never replaced)\n")
        }
        XCTAssertEqual(try String(contentsOfFile: notes, encoding: .utf8), "my notes\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: theirs)), theirBytes)
        // A directory named like a GeoPackage: never, not even with --overwrite.
        let folder = tmp.appendingPathComponent("folder.gpkg")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try "keep\n".write(to: folder.appendingPathComponent("keep.txt"), atomically: true, encoding: .utf8)
        let r = try attempt(folder.path, ["--overwrite"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("refusing to replace \(folder.path): it is a directory"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["keep.txt"])
        // An input given as the output: never.
        let input = tmp.appendingPathComponent("input.gpkg").path
        try ProcessRunner.ogr2ogr(["-f", "GPKG", input, TestPaths.rowsBuildings])
        let i = try ProcessRunner.flyrLink(["run", "--buildings", input, "--addresses", TestPaths.rowsAddresses, "--out", input, "--overwrite", "--quiet"])
        XCTAssertEqual(i.status, 1)
        XCTAssertTrue(i.stderr.contains("it is the input \(input)"), i.stderr)
        // --overwrite replaces the user's GeoPackage.
        XCTAssertEqual(try attempt(theirs, ["--overwrite"]).status, 0)
        XCTAssertTrue(try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-so", theirs]).stdout.contains("flyr_link_output"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix(".") }, [], "no staging left")
    }

    func testAKilledGeoPackageRunLeavesThePreviousFileAndNoStaging() throws {
        let tmp = TestPaths.temporaryDirectory(self)
        let gpkg = tmp.appendingPathComponent("c.gpkg").path
        try run(gpkg, [])
        let before = try Data(contentsOf: URL(fileURLWithPath: gpkg))
        let arguments = ["run", "--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses,
                         "--out", gpkg, "--quiet", "--max-distance", "10"]
        for (sig, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            // Paused with the new GeoPackage complete in the staging directory, not yet renamed.
            let p = try BackgroundProcess(arguments, environment: ["FLYR_TEST_PAUSE_AT": "staged"])
            XCTAssertTrue(p.waitFor("test pause at staged"), "never reached staged: \(p.stderr)")
            let staging = tmp.appendingPathComponent(".c.gpkg.tmp-\(p.pid)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: staging.appendingPathComponent("output.gpkg").path), "staged GeoPackage")
            kill(p.pid, sig)
            p.process.waitUntilExit()
            XCTAssertEqual(p.process.terminationStatus, status, "signal \(sig)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["c.gpkg"], "signal \(sig): staging removed")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: gpkg)), before, "signal \(sig): the previous GeoPackage is untouched")
        }
    }

    // MARK: FlatGeobuf

    func testFlatGeobufDirectoryOpensInGDALWithTheDirectorysFeatures() throws {
        let dir = try directoryRun()
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("fgb")
        try run(out.path, ["--format", "fgb"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                       [".flyr-link-output", "addresses.fgb", "buildings.fgb", "features.fgb", "links.csv", "rejects.csv", "report.html", "report.json",
                        "units.fgb"])
        for layer in Self.geometryLayers {
            let file = out.appendingPathComponent("\(layer).fgb").path
            let info = try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-so", "-al", file])
            XCTAssertEqual(info.status, 0, info.stderr)
            XCTAssertTrue(info.stdout.contains("using driver `FlatGeobuf' successful"), info.stdout)
            let expected = try OutputFiles.geojson(dir.appendingPathComponent("\(layer).geojson").path)
            XCTAssertEqual(Self.featureCounts(info.stdout)[layer], expected.count, layer)
            XCTAssertEqual(try Self.canonical(ogrGeoJSON(file, layer: nil)), try Self.canonical(expected), "\(layer): features differ")
        }
        for name in ["links.csv", "rejects.csv"] {
            XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent(name)), try Data(contentsOf: dir.appendingPathComponent(name)), name)
        }
        // The spatial index is there (GDAL reads a bbox filter through it).
        let box = try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-so", "-al", "-spat", "-118.4645", "33.987", "-118.4625", "33.989",
                                                             out.appendingPathComponent("buildings.fgb").path])
        let inBox = try XCTUnwrap(Self.featureCounts(box.stdout)["buildings"])
        XCTAssertGreaterThan(inBox, 0)
        XCTAssertLessThan(inBox, try OutputFiles.geojson(dir.appendingPathComponent("buildings.geojson").path).count)
        // Same bytes for the same run, whatever the threads.
        let before = try OutputFiles.comparableContents(out)
        try run(out.path, ["--format", "fgb"], threads: 1)
        XCTAssertEqual(try OutputFiles.comparableContents(out), before)
    }

    // MARK: GeoParquet

    func testGeoParquetPassesGeoPandasAndDuckDBWithTheDirectorysFeatures() throws {
        let dir = try directoryRun()
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("parquet")
        try run(out.path, ["--format", "parquet"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                       [".flyr-link-output", "addresses.parquet", "buildings.parquet", "features.parquet", "links.csv", "rejects.csv",
                        "report.html", "report.json", "units.parquet"])
        let files = Self.geometryLayers.map { out.appendingPathComponent("\($0).parquet").path }
        let check = try ProcessRunner.run("/bin/bash", [TestPaths.root.appendingPathComponent("scripts/geoparquet-check/check.sh").path, "--features"] + files)
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let results = check.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(results.count, 4, check.stdout + check.stderr)
        for (layer, result) in zip(Self.geometryLayers, results) {
            let expected = try OutputFiles.geojson(dir.appendingPathComponent("\(layer).geojson").path)
            let columns = try XCTUnwrap(expected.first.map { OutputFiles.properties($0) }).keys
            // GeoPandas
            let gp = try XCTUnwrap(result["geopandas"] as? [String: Any], "\(layer): \(result)")
            XCTAssertEqual(gp["rows"] as? Int, expected.count, layer)
            XCTAssertEqual(gp["crs"] as? String, "OGC:CRS84", layer)
            let gpColumns = Set(try XCTUnwrap(gp["columns"] as? [String]))
            XCTAssertTrue(Set(columns).isSubset(of: gpColumns), "\(layer): \(gpColumns)")
            let gpFeatures = try XCTUnwrap((gp["features"] as? [String: Any])?["features"] as? [[String: Any]])
            XCTAssertEqual(try Self.canonical(gpFeatures), try Self.canonical(expected), "\(layer): GeoPandas reads other features")
            // pyarrow's footer: the bbox columns' statistics, which readers prune row groups by.
            let pa = try XCTUnwrap(result["pyarrow"] as? [String: Any], "\(layer): \(result)")
            XCTAssertEqual(pa["bbox_statistics"] as? Bool, true, layer)
            XCTAssertEqual(pa["row_groups"] as? Int, 1, layer)
            // DuckDB
            let db = try XCTUnwrap(result["duckdb"] as? [String: Any], "\(layer): \(result)")
            XCTAssertEqual(db["rows"] as? Int, expected.count, layer)
            let dbColumns = try XCTUnwrap(db["columns"] as? [String])
            XCTAssertEqual(Array(dbColumns.suffix(2)), ["geometry", "bbox"], layer)
            let geo = try XCTUnwrap(db["geo"] as? [String: Any], "\(layer): geo metadata")
            XCTAssertEqual(geo["version"] as? String, "1.1.0")
            XCTAssertEqual(geo["primary_column"] as? String, "geometry")
            let g = try XCTUnwrap((geo["columns"] as? [String: Any])?["geometry"] as? [String: Any])
            XCTAssertEqual(g["encoding"] as? String, "WKB")
            XCTAssertEqual((g["bbox"] as? [Double])?.count, 4)
            XCTAssertEqual(Set(try XCTUnwrap(g["geometry_types"] as? [String])), Set(try XCTUnwrap(gp["geometry_types"] as? [String])))
            let covering = try XCTUnwrap((g["covering"] as? [String: Any])?["bbox"] as? [String: [String]])
            XCTAssertEqual(covering, ["xmin": ["bbox", "xmin"], "ymin": ["bbox", "ymin"], "xmax": ["bbox", "xmax"], "ymax": ["bbox", "ymax"]])
            if db["spatial"] as? Bool == true { XCTAssertEqual(db["valid_wkb"] as? Int, expected.count, layer) }
        }
        // Same bytes for the same run, whatever the threads.
        let before = try OutputFiles.comparableContents(out)
        try run(out.path, ["--format", "parquet"], threads: 1)
        XCTAssertEqual(try OutputFiles.comparableContents(out), before)
    }

    // MARK: --only links, bad use

    func testOnlyLinksInEachFormat() throws {
        let tmp = TestPaths.temporaryDirectory(self)
        let gpkg = tmp.appendingPathComponent("links.gpkg").path
        try run(gpkg, ["--only", "links"])
        let info = try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-so", gpkg])
        let layers = info.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }.map(String.init)
        XCTAssertEqual(layers, ["1: links (None)", "2: rejects (None)", "3: report (None)", "4: flyr_link_output (None)"], info.stdout)
        for format in ["fgb", "parquet"] {
            let out = tmp.appendingPathComponent(format)
            try run(out.path, ["--only", "links", "--format", format])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                           [".flyr-link-output", "links.csv", "rejects.csv", "report.html", "report.json"], format)
        }
    }

    func testBadFormatUseIsOneLine() throws {
        let tmp = TestPaths.temporaryDirectory(self)
        let base = ["run", "--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses, "--quiet"]
        let unknown = try ProcessRunner.flyrLink(base + ["--out", tmp.appendingPathComponent("o").path, "--format", "shp"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stderr, "flyr-link: error: The value 'shp' is invalid for '--format <format>'. Please provide one of 'dir', 'gpkg', 'fgb' or 'parquet' (see flyr-link run --help)\n")
        let database = try ProcessRunner.flyrLink(base + ["--out", "postgresql://flyr:secret@127.0.0.1:1/db", "--format", "gpkg"])
        XCTAssertEqual(database.status, 64)
        XCTAssertTrue(database.stderr.hasPrefix("flyr-link: error: --format gpkg writes files; --out names a PostgreSQL database"), database.stderr)
        XCTAssertEqual(database.stderr.split(separator: "\n").count, 1, database.stderr)
        XCTAssertFalse(database.stderr.contains("secret"))
        // The same from a pipeline file: the library's check, one line.
        let pipeline = tmp.appendingPathComponent("p.toml")
        try """
        buildings = "\(TestPaths.rowsBuildings)"
        addresses = "\(TestPaths.rowsAddresses)"
        out = "postgresql://flyr:secret@127.0.0.1:1/db"
        format = "parquet"
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let piped = try ProcessRunner.flyrLink(["run", pipeline.path, "--quiet"])
        XCTAssertEqual(piped.status, 1)
        XCTAssertEqual(piped.stderr, "flyr-link: error: --format parquet writes files; --out names a PostgreSQL database (drop --format, or give a path)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["p.toml"], "nothing written")
    }

    // MARK: reading back

    /// A layer as GeoJSON features, through ogr2ogr.
    private func ogrGeoJSON(_ source: String, layer: String?) throws -> [[String: Any]] {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("\(layer ?? "layer").geojson").path
        try ProcessRunner.ogr2ogr(["-f", "GeoJSON", out, source] + (layer.map { [$0] } ?? []))
        return try OutputFiles.geojson(out)
    }

    /// `Feature Count:` per `Layer name:` in `ogrinfo -al -so` output.
    static func featureCounts(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        var layer = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("Layer name: ") { layer = String(line.dropFirst("Layer name: ".count)) }
            if line.hasPrefix("Feature Count: ") { counts[layer] = Int(line.dropFirst("Feature Count: ".count)) }
        }
        return counts
    }

    /// Features as sorted canonical strings: non-null properties by name, numbers (and numeric
    /// text) to 9 decimals — values within 1e-9 agree — and the geometry's type (a MultiPolygon
    /// of one polygon as that Polygon: GeoPackage and FlatGeobuf declare polygon layers
    /// MultiPolygon) and coordinates to 9 decimals.
    static func canonical(_ features: [[String: Any]]) throws -> [String] {
        try features.map { f in
            var text = "{" + canonicalProperties(OutputFiles.properties(f)) + "} "
            if let g = f["geometry"] as? [String: Any] {
                var type = try XCTUnwrap(g["type"] as? String)
                var coordinates = g["coordinates"]
                if type == "MultiPolygon", let parts = coordinates as? [Any], parts.count == 1 {
                    type = "Polygon"
                    coordinates = parts[0]
                }
                text += type + " " + canonicalCoordinates(coordinates)
            } else {
                text += "null"
            }
            return text
        }.sorted()
    }

    /// CSV rows (empty cells are nulls) as `canonical` writes properties.
    static func canonical(csvRows rows: [[String: String]]) -> [String] {
        rows.map { "{" + canonicalProperties($0.filter { !$0.value.isEmpty }) + "} null" }.sorted()
    }

    private static func canonicalProperties(_ p: [String: Any]) -> String {
        p.keys.sorted().compactMap { k in
            switch p[k] {
            case nil, is NSNull: return nil
            case let s as String: return "\(k)=\(canonicalText(s))"
            case let b as Bool: return "\(k)=\(String(format: "%.9f", b ? 1.0 : 0.0))"
            case let n as NSNumber: return "\(k)=\(String(format: "%.9f", n.doubleValue))"
            case let other?: return "\(k)=\(other)"
            }
        }.joined(separator: ",")
    }

    /// Text as CSV and JSON readers may type it: numbers to 9 decimals, true/false as 1/0.
    private static func canonicalText(_ s: String) -> String {
        if s == "true" { return String(format: "%.9f", 1.0) }
        if s == "false" { return String(format: "%.9f", 0.0) }
        if let d = Double(s) { return String(format: "%.9f", d) }
        return s
    }

    private static func canonicalCoordinates(_ c: Any?) -> String {
        if let list = c as? [Any] {
            if list.first is NSNumber, !(list.first is [Any]) {
                return "(" + list.map { String(format: "%.9f", ($0 as? NSNumber)?.doubleValue ?? .nan) }.joined(separator: " ") + ")"
            }
            return "[" + list.map(canonicalCoordinates).joined(separator: ",") + "]"
        }
        return "?"
    }
}
