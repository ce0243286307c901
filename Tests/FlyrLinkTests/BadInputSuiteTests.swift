import XCTest
@testable import FlyrLink

/// Bad input, one case a row, each run through the built binary on tiny inputs the test writes.
/// A failing case: the expected exit status, one stderr line holding the expected text, and the previous output directory byte-identical with no
/// staging left beside it. A succeeding case: every input address id in exactly one of
/// links.csv, the unlinked addresses (addresses.geojson without building_id) or rejects.csv,
/// plus the rejects the case names.
final class BadInputSuiteTests: XCTestCase {
    enum Content {
        case text(String)
        case directory
        case fifo
    }

    struct Case {
        var name: String
        var files: [String: Content] = [:]
        var args: [String]
        var exit: Int32
        /// Failing case: text of the stderr line.
        var stderr: String = ""
        /// Text that may appear nowhere in stdout, stderr or the output (a password).
        var secret: String?
        /// Succeeding case: the input address ids, and rejects expected (layer, row, reason text).
        var addressIDs: [String] = []
        var rejects: [(String, Int, String)] = []
    }

    // MARK: tiny inputs (lon/lat around 10°E 56°N)

    static func square(_ x: Double, _ y: Double, _ d: Double = 0.0002) -> String {
        "[[[\(x),\(y)],[\(x + d),\(y)],[\(x + d),\(y + d)],[\(x),\(y + d)],[\(x),\(y)]]]"
    }

    static func collection(_ features: [String], crs: String? = nil) -> String {
        let c = crs.map { #""crs":{"type":"name","properties":{"name":"\#($0)"}},"# } ?? ""
        return #"{"type":"FeatureCollection",\#(c)"features":[\#(features.joined(separator: ",\n"))]}"#
    }

    static func feature(_ id: String, _ geometry: String, _ extra: String = "") -> String {
        #"{"type":"Feature","properties":{"id":"\#(id)"\#(extra)},"geometry":\#(geometry)}"#
    }

    static func point(_ x: Double, _ y: Double) -> String { #"{"type":"Point","coordinates":[\#(x),\#(y)]}"# }
    static func polygon(_ x: Double, _ y: Double) -> String { #"{"type":"Polygon","coordinates":\#(square(x, y))}"# }

    static let buildings = collection([feature("b1", polygon(10.0, 56.0)), feature("b2", polygon(10.001, 56.0))])
    static let addresses = collection([feature("a1", point(10.0001, 56.0001)), feature("a2", point(10.0011, 56.0001)),
                                       feature("a3", point(10.1, 56.1))])
    static let lines = collection((1...3).map { feature("l\($0)", #"{"type":"LineString","coordinates":[[10.0,56.0],[10.001,56.001]]}"#) })
    static let metres = collection([feature("m1", point(720000, 6170000)), feature("m2", point(720050, 6170050))])
    static let metrePolygons = collection([feature("mb1", polygon(720000, 6170000))])
    static let deepCoordinates = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    static let deepValue = String(repeating: "[", count: 100_000) + "1" + String(repeating: "]", count: 100_000)
    static let deepCollection = String(repeating: #"{"type":"GeometryCollection","geometries":["#, count: 40) + point(10.0, 56.0)
        + String(repeating: "]}", count: 40)
    static let territory = collection([feature("t", #"{"type":"Polygon","coordinates":\#(square(9.9, 55.9, 0.5))}"#)])

    static let base: [String: Content] = ["b.geojson": .text(buildings), "a.geojson": .text(addresses)]
    static let ids = ["a1", "a2", "a3"]
    static let ok = ["--buildings", "b.geojson", "--addresses", "a.geojson"]

    static func files(_ extra: [String: Content]) -> [String: Content] { base.merging(extra) { $1 } }

    static let cases: [Case] = [
        // Sources that cannot be opened or are not what they claim to be.
        Case(name: "missing buildings file", args: ["--buildings", "nope.geojson", "--addresses", "a.geojson"], exit: 1, stderr: "no such file"),
        Case(name: "missing addresses file", args: ["--buildings", "b.geojson", "--addresses", "nope.fgb"], exit: 1, stderr: "no such file"),
        Case(name: "missing layer", args: ["--buildings", "b.geojson", "--buildings-layer", "nope", "--addresses", "a.geojson"], exit: 1,
             stderr: "has no layer 'nope'"),
        Case(name: "directory named like a GeoJSON file", files: ["dir.geojson": .directory],
             args: ["--buildings", "dir.geojson", "--addresses", "a.geojson"], exit: 1, stderr: "dir.geojson: is a directory, not a file"),
        Case(name: "directory named like a FlatGeobuf file", files: ["dir.fgb": .directory],
             args: ["--buildings", "b.geojson", "--addresses", "dir.fgb"], exit: 1, stderr: "is a directory, not a file"),
        Case(name: "FIFO named like a GeoJSON file", files: ["pipe.geojson": .fifo],
             args: ["--buildings", "pipe.geojson", "--addresses", "a.geojson"], exit: 1, stderr: "is a pipe, not a file"),
        Case(name: "FIFO without an extension", files: ["pipe": .fifo],
             args: ["--buildings", "b.geojson", "--addresses", "pipe"], exit: 1, stderr: "pipes (e.g. <(…)) are not supported"),
        Case(name: "empty GeoJSON file", files: ["e.geojson": .text("")], args: ["--buildings", "b.geojson", "--addresses", "e.geojson"],
             exit: 1, stderr: "empty file"),
        Case(name: "truncated GeoJSON", files: ["t.geojson": .text(String(addresses.dropLast(30)))],
             args: ["--buildings", "b.geojson", "--addresses", "t.geojson"], exit: 1, stderr: "invalid JSON at byte"),
        Case(name: "broken JSON inside properties", files: ["p.geojson": .text(collection([feature("a1", point(10.0, 56.0), #","x":[1,}"#)]))],
             args: ["--buildings", "b.geojson", "--addresses", "p.geojson"], exit: 1, stderr: "invalid JSON at byte"),
        Case(name: "CSV without geometry", files: ["n.csv": .text("id,name\n1,x\n")], args: ["--buildings", "b.geojson", "--addresses", "n.csv"],
             exit: 1, stderr: "no geometry"),
        // CRS.
        Case(name: "CSV in metres without CRS", files: ["m.csv": .text("id,x,y\nm1,720000,6170000\n")],
             args: ["--buildings", "b.geojson", "--addresses", "m.csv", "--address-field", "id=id"], exit: 1, stderr: "has no CRS"),
        Case(name: "GeoJSON addresses in metres without crs member", files: ["m.geojson": .text(metres)],
             args: ["--buildings", "b.geojson", "--addresses", "m.geojson"], exit: 1, stderr: "m.geojson has no CRS and its coordinates are not longitude/latitude; give one with --addresses-crs"),
        Case(name: "GeoJSON buildings in metres without crs member", files: ["mb.geojson": .text(metrePolygons)],
             args: ["--buildings", "mb.geojson", "--addresses", "a.geojson"], exit: 1, stderr: "give one with --buildings-crs"),
        // The same files read through GDAL (a .json file, a named layer): judged on the coordinates too.
        Case(name: "GeoJSON addresses in metres without crs member read by GDAL (.json)", files: ["m.json": .text(metres)],
             args: ["--buildings", "b.geojson", "--addresses", "m.json"], exit: 1,
             stderr: "m.json has no CRS and its coordinates are not longitude/latitude; give one with --addresses-crs"),
        Case(name: "GeoJSON buildings in metres without crs member, named layer (GDAL)", files: ["mb.geojson": .text(metrePolygons)],
             args: ["--buildings", "mb.geojson", "--buildings-layer", "mb", "--addresses", "a.geojson"], exit: 1,
             stderr: "give one with --buildings-crs"),
        Case(name: "unknown CRS", args: ok + ["--buildings-crs", "EPSG:999999"], exit: 1, stderr: "CRS"),
        // Options.
        Case(name: "campaign not a UUID", args: ok + ["--campaign", "nope"], exit: 1, stderr: "not a UUID"),
        Case(name: "unknown address field", args: ok + ["--address-field", "colour=paint"], exit: 1, stderr: "unknown address field"),
        Case(name: "mapped field missing", args: ok + ["--address-field", "house_number=nope"], exit: 1, stderr: "field 'nope'"),
        Case(name: "negative max distance", args: ok + ["--max-distance", "-5"], exit: 64, stderr: "--max-distance must be a distance from 0 to 10000 metres, not -5.0"),
        Case(name: "zero threads", args: ok + ["--threads", "0"], exit: 64, stderr: "--threads must be from 1 to 1024, not 0"),
        Case(name: "unknown units mode", args: ok + ["--units", "halves"], exit: 64, stderr: "The value 'halves' is invalid for '--units <units>'. Please provide one of 'split' and 'none' (see flyr-link run --help)"),
        // Numbers past what a run can use (a cell size that overflows, a thread per address).
        Case(name: "max distance 1e308", args: ok + ["--max-distance", "1e308"], exit: 64,
             stderr: "--max-distance must be a distance from 0 to 10000 metres, not 1e+308"),
        Case(name: "threads 2^63 - 1", args: ok + ["--threads", "9223372036854775807"], exit: 64, stderr: "--threads must be from 1 to 1024"),
        Case(name: "threads a million", args: ok + ["--threads", "1000000"], exit: 64, stderr: "--threads must be from 1 to 1024, not 1000000"),
        Case(name: "pipeline max_distance 1e308", files: ["p.toml": .text("buildings = \"b.geojson\"\naddresses = \"a.geojson\"\nmax_distance = 1e308\n")],
             args: ["p.toml"], exit: 1, stderr: "--max-distance (max_distance) must be a distance from 0 to 10000 metres, not 1e+308"),
        Case(name: "pipeline threads a million", files: ["p.toml": .text("buildings = \"b.geojson\"\naddresses = \"a.geojson\"\nthreads = 1000000\n")],
             args: ["p.toml"], exit: 1, stderr: "--threads (threads) must be from 1 to 1024, not 1000000"),
        // --write-evidence: never over an input, a special file, a user's file, or into the output it replaces.
        Case(name: "evidence over the addresses input", args: ok + ["--write-evidence", "a.geojson"], exit: 1,
             stderr: "(--write-evidence): it is the input a.geojson"),
        Case(name: "evidence over the buildings input, through a pipeline file's directory", files: ["in": .directory],
             args: ok + ["--write-evidence", "in/../b.geojson"], exit: 1, stderr: "(--write-evidence): it is the input b.geojson"),
        Case(name: "evidence to a FIFO", files: ["fifo": .fifo], args: ok + ["--write-evidence", "fifo"], exit: 1,
             stderr: "(--write-evidence): it is a FIFO, not a regular file or directory"),
        Case(name: "evidence over a user's file", files: ["notes.csv": .text("mine,1\n")], args: ok + ["--write-evidence", "notes.csv"],
             exit: 1, stderr: "it is a file flyr-link did not write (pass --overwrite to replace it, or give a new path)"),
        Case(name: "evidence into the output directory", args: ok + ["--write-evidence", "out/evidence.csv"], exit: 1,
             stderr: "it lies in the --out target out, which the run replaces"),
        Case(name: "evidence as a directory", files: ["ev": .directory], args: ok + ["--write-evidence", "ev"], exit: 1,
             stderr: "it is a directory (give a file path)"),
        // Layers without features: a failed export, not an empty campaign (--allow-empty to mean it).
        Case(name: "empty GeoJSON addresses", files: ["e.geojson": .text(collection([]))], args: ["--buildings", "b.geojson", "--addresses", "e.geojson"],
             exit: 1, stderr: "addresses: e.geojson has no features; nothing was written (pass --allow-empty to write an empty campaign)"),
        Case(name: "empty GeoJSON buildings", files: ["e.geojson": .text(collection([]))], args: ["--buildings", "e.geojson", "--addresses", "a.geojson"],
             exit: 1, stderr: "buildings: e.geojson has no features"),
        Case(name: "CSV addresses of a header only", files: ["e.csv": .text("id,house_number,WKT\n")],
             args: ["--buildings", "b.geojson", "--addresses", "e.csv"], exit: 1, stderr: "addresses: e.csv has no features"),
        Case(name: "empty addresses from a pipeline file", files: ["e.geojson": .text(collection([])),
             "p.toml": .text("buildings = \"b.geojson\"\naddresses = \"e.geojson\"\n")], args: ["p.toml"], exit: 1, stderr: "has no features"),
        // Layers of rejects only.
        Case(name: "lines as buildings", files: ["l.geojson": .text(lines)], args: ["--buildings", "l.geojson", "--addresses", "a.geojson"],
             exit: 1, stderr: "buildings: every feature of l.geojson was rejected (3 rejects; most common, 3×: geometry is a LineString"),
        Case(name: "points as buildings", args: ["--buildings", "a.geojson", "--addresses", "b.geojson"], exit: 1,
             stderr: "buildings: every feature of a.geojson was rejected"),
        Case(name: "polygons as addresses", args: ["--buildings", "b.geojson", "--addresses", "b.geojson"], exit: 1,
             stderr: "addresses: every feature of b.geojson was rejected (2 rejects; most common, 2×: geometry is a polygon"),
        Case(name: "null geometries only", files: ["n.geojson": .text(collection([feature("a1", "null"), feature("a2", "null")]))],
             args: ["--buildings", "b.geojson", "--addresses", "n.geojson"], exit: 1, stderr: "most common, 2×: no geometry"),
        Case(name: "lines as buildings from a pipeline file", files: ["l.geojson": .text(lines),
             "p.toml": .text("buildings = \"l.geojson\"\naddresses = \"a.geojson\"\n")], args: ["p.toml"], exit: 1,
             stderr: "pass --allow-empty to write an empty campaign"),
        // Pipeline files.
        Case(name: "pipeline file with an unknown key", files: ["p.toml": .text("buildings = \"b.geojson\"\ncolour = 1\n")],
             args: ["p.toml"], exit: 1, stderr: "unknown key 'colour'"),
        Case(name: "pipeline allow_empty not a boolean", files: ["p.toml": .text("buildings = \"b.geojson\"\nallow_empty = \"yes\"\n")],
             args: ["p.toml"], exit: 1, stderr: "'allow_empty' must be true or false"),
        // Territory.
        Case(name: "missing territory", args: ok + ["--territory", "nope.geojson"], exit: 1, stderr: "no such file"),
        Case(name: "points as territory", args: ok + ["--territory", "a.geojson"], exit: 1, stderr: "a territory must be polygons"),
        // Passwords: never printed.
        Case(name: "PG buildings with a key=value password",
             args: ["--buildings", "PG:host=127.0.0.1 port=1 dbname=x user=u password=SECRET123", "--addresses", "a.geojson"],
             exit: 1, stderr: "password=***", secret: "SECRET123"),
        Case(name: "PG addresses as a URI with a password", args: ["--buildings", "b.geojson", "--addresses", "postgresql://u:SECRET456@127.0.0.1:1/db"],
             exit: 1, stderr: "u:***@127.0.0.1", secret: "SECRET456"),
        Case(name: "PG addresses with a quoted password and a layer",
             args: ["--buildings", "b.geojson", "--addresses", "PG:host=127.0.0.1 port=1 dbname=x password='SEC RET789'", "--addresses-layer", "nope"],
             exit: 1, stderr: "cannot open", secret: "RET789"),
        Case(name: "PG territory with a password", args: ok + ["--territory", "PG:host=127.0.0.1 port=1 dbname=x password=SECRET000"],
             exit: 1, stderr: "territory: cannot open", secret: "SECRET000"),
        Case(name: "PG URI query password", args: ["--buildings", "postgresql://127.0.0.1:1/db?user=u&password=SECRETQ", "--addresses", "a.geojson"],
             exit: 1, stderr: "password=***", secret: "SECRETQ"),

        // Runs that go on: per-row rejects, nothing lost.
        Case(name: "position of one number", files: ["x.geojson": .text(collection([feature("a1", point(10.0001, 56.0001)),
             feature("x1", #"{"type":"Point","coordinates":[10.0]}"#)]))], args: ["--buildings", "b.geojson", "--addresses", "x.geojson"],
             exit: 0, addressIDs: ["a1", "x1"], rejects: [("addresses", 2, "a position needs at least two numbers")]),
        Case(name: "position of strings", files: ["x.geojson": .text(collection([feature("x1", #"{"type":"Point","coordinates":["a","b"]}"#),
             feature("a1", point(10.0001, 56.0001))]))], args: ["--buildings", "b.geojson", "--addresses", "x.geojson"],
             exit: 0, addressIDs: ["x1", "a1"], rejects: [("addresses", 1, "expected a number")]),
        Case(name: "malformed position in a building ring", files: ["x.geojson": .text(collection([feature("b1", polygon(10.0, 56.0)),
             feature("bx", #"{"type":"Polygon","coordinates":[[[10.0,56.0],[10.1],[10.0,56.1],[10.0,56.0]]]}"#)]))],
             args: ["--buildings", "x.geojson", "--addresses", "a.geojson"], exit: 0, addressIDs: ids,
             rejects: [("buildings", 2, "a position needs at least two numbers")]),
        Case(name: "coordinates nested 100,000 deep", files: ["d.geojson": .text(collection([feature("a1", point(10.0001, 56.0001)),
             feature("deep", #"{"type":"Point","coordinates":\#(deepCoordinates)}"#)]))], args: ["--buildings", "b.geojson", "--addresses", "d.geojson"],
             exit: 0, addressIDs: ["a1", "deep"], rejects: [("addresses", 2, "coordinates nested too deeply")]),
        Case(name: "building coordinates nested 100,000 deep", files: ["d.geojson": .text(collection([feature("b1", polygon(10.0, 56.0)),
             feature("deep", #"{"type":"Polygon","coordinates":\#(deepCoordinates)}"#)]))], args: ["--buildings", "d.geojson", "--addresses", "a.geojson"],
             exit: 0, addressIDs: ids, rejects: [("buildings", 2, "nested too deeply")]),
        Case(name: "property nested 100,000 deep", files: ["d.geojson": .text(collection([feature("a1", point(10.0001, 56.0001), #","note":\#(deepValue)"#)]))],
             args: ["--buildings", "b.geojson", "--addresses", "d.geojson"], exit: 0, addressIDs: ["a1"]),
        Case(name: "geometry collections nested 40 deep", files: ["d.geojson": .text(collection([feature("a1", point(10.0001, 56.0001)),
             feature("gc", deepCollection)]))], args: ["--buildings", "b.geojson", "--addresses", "d.geojson"],
             exit: 0, addressIDs: ["a1", "gc"], rejects: [("addresses", 2, "geometry collections nested too deeply")]),
        Case(name: "one coordinate out of range in a lon/lat file", files: ["o.geojson": .text(collection([feature("a1", point(10.0001, 56.0001)),
             feature("a2", point(10.0011, 56.0001)), feature("far", point(720000, 6170000))]))],
             args: ["--buildings", "b.geojson", "--addresses", "o.geojson"], exit: 0, addressIDs: ["a1", "a2", "far"],
             rejects: [("addresses", 3, "outside the valid range")]),
        Case(name: "metres with --addresses-crs", files: ["m.geojson": .text(metres)],
             args: ["--buildings", "b.geojson", "--addresses", "m.geojson", "--addresses-crs", "EPSG:25832"], exit: 0, addressIDs: ["m1", "m2"]),
        Case(name: "metres in a .json file with --addresses-crs (GDAL)", files: ["m.json": .text(metres)],
             args: ["--buildings", "b.geojson", "--addresses", "m.json", "--addresses-crs", "EPSG:25832"], exit: 0, addressIDs: ["m1", "m2"]),
        Case(name: "lon/lat in a .json file (GDAL)", files: ["a.json": .text(addresses)],
             args: ["--buildings", "b.geojson", "--addresses", "a.json"], exit: 0, addressIDs: ids),
        Case(name: "metres with a crs member", files: ["m.geojson": .text(collection([feature("m1", point(720000, 6170000))], crs: "urn:ogc:def:crs:EPSG::25832"))],
             args: ["--buildings", "b.geojson", "--addresses", "m.geojson"], exit: 0, addressIDs: ["m1"]),
        Case(name: "mixed good and bad addresses", files: ["x.geojson": .text(collection([feature("a1", point(10.0001, 56.0001)),
             feature("n1", "null"), feature("p1", polygon(10.0, 56.0)), feature("a1", point(10.0011, 56.0001)), feature("a3", point(10.1, 56.1))]))],
             args: ["--buildings", "b.geojson", "--addresses", "x.geojson"], exit: 0, addressIDs: ["a1", "n1", "p1", "a1", "a3"],
             rejects: [("addresses", 2, "no geometry"), ("addresses", 3, "polygon"), ("addresses", 4, "duplicate id")]),
        Case(name: "lines as buildings with --allow-empty", files: ["l.geojson": .text(lines)],
             args: ["--buildings", "l.geojson", "--addresses", "a.geojson", "--allow-empty"], exit: 0, addressIDs: ids,
             rejects: [("buildings", 1, "LineString"), ("buildings", 3, "LineString")]),
        Case(name: "lines as buildings with allow_empty in the pipeline file", files: ["l.geojson": .text(lines),
             "p.toml": .text("buildings = \"l.geojson\"\naddresses = \"a.geojson\"\nallow_empty = true\n")], args: ["p.toml"], exit: 0, addressIDs: ids),
        Case(name: "polygons as addresses with --allow-empty", args: ["--buildings", "b.geojson", "--addresses", "b.geojson", "--allow-empty"],
             exit: 0, addressIDs: ["b1", "b2"], rejects: [("addresses", 1, "polygon")]),
        Case(name: "a max distance of 0 is a value", args: ok + ["--max-distance", "0"], exit: 0, addressIDs: ids),
        Case(name: "a max distance of 10 km is a value", args: ok + ["--max-distance", "10000"], exit: 0, addressIDs: ids),
        Case(name: "empty addresses with --allow-empty", files: ["e.geojson": .text(collection([]))],
             args: ["--buildings", "b.geojson", "--addresses", "e.geojson", "--allow-empty"], exit: 0, addressIDs: []),
    ]

    // MARK: running the cases

    func testEveryBadInputCase() throws {
        XCTAssertGreaterThanOrEqual(Self.cases.count, 40)
        XCTAssertEqual(Set(Self.cases.map(\.name)).count, Self.cases.count, "case names are unique")
        for c in Self.cases { try check(c) }
    }

    func contents(_ dir: URL) throws -> [String: Data] { try OutputFiles.everyFile(dir) }

    /// Every entry of `dir` but the output: a regular file's bytes, or what kind of entry it is
    /// (a FIFO is never opened: that would block).
    func inputs(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name != "out" {
            var info = stat()
            XCTAssertEqual(lstat(dir.appendingPathComponent(name).path, &info), 0)
            out[name] = info.st_mode & S_IFMT == S_IFREG ? try Data(contentsOf: dir.appendingPathComponent(name)) : Data("mode \(info.st_mode)".utf8)
        }
        return out
    }

    func write(_ files: [String: Content], in dir: URL) throws {
        for (name, content) in files {
            let url = dir.appendingPathComponent(name)
            switch content {
            case .text(let s): try Data(s.utf8).write(to: url)
            case .directory: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            case .fifo: XCTAssertEqual(mkfifo(url.path, 0o600), 0)
            }
        }
    }

    func check(_ c: Case) throws {
        let dir = TestPaths.temporaryDirectory(self)
        try write(Self.files(c.files), in: dir)
        let out = dir.appendingPathComponent("out")
        let tail = ["--out", "out", "--quiet"]
        // The previous output, which a failing run must leave as it was.
        let first = try ProcessRunner.flyrLink(["run"] + Self.ok + tail, cwd: dir.path)
        XCTAssertEqual(first.status, 0, "\(c.name): the previous run: \(first.stderr)")
        let before = try contents(out)
        let inputsBefore = try inputs(dir)
        let r = try ProcessRunner.flyrLink(["run"] + c.args + tail, cwd: dir.path)
        XCTAssertEqual(try inputs(dir), inputsBefore, "\(c.name): the user's files must be untouched")
        XCTAssertEqual(r.status, c.exit, "\(c.name): stderr: \(r.stderr)")
        if let secret = c.secret {
            XCTAssertFalse(r.stderr.contains(secret) || r.stdout.contains(secret), "\(c.name): password printed: \(r.stderr)")
            for (name, data) in try contents(out) {
                XCTAssertFalse(String(decoding: data, as: UTF8.self).contains(secret), "\(c.name): password in \(name)")
            }
        }
        let hidden = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(hidden, [], "\(c.name): no staging directory may be left")
        if c.exit != 0 {
            // (A usage error, exit 64, names the subcommand's --help on the same line.)
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: true)
            XCTAssertEqual(lines.count, 1, "\(c.name): one stderr line: \(r.stderr)")
            XCTAssertTrue(lines.first?.hasPrefix("flyr-link: error: ") ?? false, "\(c.name): \(r.stderr)")
            XCTAssertTrue(lines.first?.contains(c.stderr) ?? false, "\(c.name): expected '\(c.stderr)' in: \(r.stderr)")
            XCTAssertEqual(try contents(out), before, "\(c.name): the previous output must be untouched")
            return
        }
        // A run that succeeds says nothing but warnings (its inputs here have no house numbers, say).
        let notWarnings = r.stderr.split(separator: "\n").filter { !$0.hasPrefix("flyr-link: warning: ") }
        XCTAssertEqual(notWarnings, [], c.name)
        // Every input address in exactly one of links, unlinked addresses, rejects.
        let linked = try OutputFiles.csv(out.appendingPathComponent("links.csv").path).map { $0["address_id"] ?? "" }
        let unlinked = try OutputFiles.geojson(out.appendingPathComponent("addresses.geojson").path).map(OutputFiles.properties)
            .filter { $0["building_id"] == nil || $0["building_id"] is NSNull }.map { $0["id"] as? String ?? "" }
        let rejectRows = try OutputFiles.csv(out.appendingPathComponent("rejects.csv").path)
        let rejected = rejectRows.filter { $0["layer"] == "addresses" }.map { $0["id"] ?? "" }
        // A duplicate id is rejected under its own id: the same id may be in two places, once per input row.
        XCTAssertEqual((linked + unlinked + rejected).sorted(), c.addressIDs.sorted(), "\(c.name): every address exactly once")
        for (layer, row, reason) in c.rejects {
            let match = rejectRows.first { $0["layer"] == layer && $0["source_row"] == String(row) }
            XCTAssertTrue(match?["reason"]?.contains(reason) ?? false, "\(c.name): reject \(layer) row \(row): \(match ?? [:]), rejects: \(rejectRows)")
        }
    }

    // MARK: passwords

    func testConnectionStringsAreMaskedEverywhere() {
        let cases = [
            ("PG:host=h dbname=d user=u password=SECRET1", "PG:host=h dbname=d user=u password=***"),
            ("PG:host=h password = 'SE CRET2' dbname=d", "PG:host=h password=*** dbname=d"),
            ("postgresql://u:SECRET3@h:5432/d", "postgresql://u:***@h:5432/d"),
            ("postgres://u:SECRET4@h/d?sslmode=require&password=SECRET5", "postgres://u:***@h/d?sslmode=require&password=***"),
            ("cannot open PG:password=A1 and PG:password=B2", "cannot open PG:password=*** and PG:password=***"),
            ("/data/buildings.geojson", "/data/buildings.geojson"),
        ]
        for (given, masked) in cases { XCTAssertEqual(ConnectionSecrets.masked(given), masked) }
        XCTAssertEqual(SourceSpec.parse("PG:dbname=d password=SECRET6", layer: "b").description, "PG:dbname=d password=***:b")
        XCTAssertEqual(PostgresTarget.redacted("postgresql://u:SECRET7@h/d"), "postgresql://u:***@h/d")
        XCTAssertEqual(InputError("buildings: cannot open PG:password=SECRET8").message, "buildings: cannot open PG:password=***")
    }

    // MARK: snapshots share the empty-layer check

    func testASnapshotOfRejectsOnlyFailsAndKeepsThePreviousVersion() throws {
        let dir = TestPaths.temporaryDirectory(self)
        try write(Self.files(["l.geojson": .text(Self.lines), "t.geojson": .text(Self.territory)]), in: dir)
        let campaign = "6f1c2a9e-3b7d-5c41-9a8e-2d4f6b8c0e1a"
        let common = ["snapshot", "--campaign", campaign, "--territory", "t.geojson", "--root", "root", "--quiet", "--threads", "1"]
        let first = try ProcessRunner.flyrLink(common + ["--buildings", "b.geojson", "--addresses", "a.geojson"], cwd: dir.path)
        XCTAssertEqual(first.status, 0, first.stderr)
        let root = dir.appendingPathComponent("root")
        // The campaign's .lock (the holder's pid) is not part of the snapshot.
        func versions() throws -> [String: Data] { try contents(root).filter { !$0.key.hasSuffix("/.lock") } }
        let before = try versions()
        let r = try ProcessRunner.flyrLink(common + ["--buildings", "l.geojson", "--addresses", "a.geojson"], cwd: dir.path)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("buildings: every feature of l.geojson was rejected"), r.stderr)
        XCTAssertEqual(try versions(), before)
        let allowed = try ProcessRunner.flyrLink(common + ["--buildings", "l.geojson", "--addresses", "a.geojson", "--allow-empty"], cwd: dir.path)
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }
}
