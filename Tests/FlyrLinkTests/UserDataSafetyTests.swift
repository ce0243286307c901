import XCTest
@testable import FlyrLink

/// Nothing the user had is deleted or written over, whatever the options: `--overwrite` replaces
/// only what a run writes; every path a run writes is judged with symbolic links followed; an empty
/// layer fails in every format, into PostGIS and in `snapshot`; a write past a file-size limit is
/// one line with the previous output kept. Every case runs in a directory the test made.
final class UserDataSafetyTests: XCTestCase {
    let helsinki = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]

    func run(_ arguments: [String], cwd: String? = nil) throws -> ProcessResult {
        try ProcessRunner.flyrLink(["run"] + arguments + ["--quiet", "--threads", "2"], cwd: cwd)
    }

    /// Every entry under `dir`: a file's bytes, a link's target, or a directory's mark.
    func tree(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let fm = FileManager.default
        for case let relative as String in fm.enumerator(atPath: dir.path)! {
            let path = dir.appendingPathComponent(relative).path
            var info = stat()
            XCTAssertEqual(lstat(path, &info), 0)
            switch info.st_mode & S_IFMT {
            case S_IFREG: out[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
            case S_IFLNK: out[relative] = Data(("link → " + (try fm.destinationOfSymbolicLink(atPath: path))).utf8)
            default: out[relative] = Data("mode \(info.st_mode)".utf8)
            }
        }
        return out
    }

    func assertRefused(_ r: ProcessResult, _ text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 1, r.stderr, file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "one line: \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.hasPrefix("flyr-link: error: ") && r.stderr.contains(text), "expected '\(text)' in: \(r.stderr)",
                      file: file, line: line)
    }

    /// A source tree (a README, a subdirectory with code): what `--out ~/project --overwrite` would have deleted.
    func sourceTree(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent("src"), withIntermediateDirectories: true)
        try Data("# my project\n".utf8).write(to: url.appendingPathComponent("README.md"))
        try Data("print(1)\n".utf8).write(to: url.appendingPathComponent("src/main.py"))
    }

    // MARK: --overwrite (items 1 and 2)

    func testOverwriteFromTheCommandLineOrAPipelineFileNeverReplacesAUsersDirectory() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let project = dir.appendingPathComponent("project")
        try sourceTree(project)
        let toml = dir.appendingPathComponent("p.toml")
        try "buildings = \"\(TestPaths.helsinkiBuildings)\"\naddresses = \"\(TestPaths.helsinkiAddresses)\"\nout = \"project\"\noverwrite = true\n"
            .write(to: toml, atomically: true, encoding: .utf8)
        let before = try tree(dir)
        for r in [try run(helsinki + ["--out", project.path, "--overwrite"]), try ProcessRunner.flyrLink(["run", toml.path, "--quiet"])] {
            assertRefused(r, "refusing to replace \(project.path): it holds README.md, which flyr-link does not write")
            XCTAssertFalse(r.stderr.contains("--overwrite"), r.stderr)
            XCTAssertEqual(try tree(dir), before)
        }
    }

    func testALookAlikeOfTheUsersIsReplacedOnlyWithOverwrite() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let mine = dir.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: false)
        try Data(#"{"mine": true}"#.utf8).write(to: mine.appendingPathComponent("report.json"))
        try Data("id,note\n1,keep\n".utf8).write(to: mine.appendingPathComponent("links.csv"))
        let before = try tree(dir)
        assertRefused(try run(helsinki + ["--out", mine.path]), "its files are named like flyr-link's outputs but it has no .flyr-link-output marker")
        XCTAssertEqual(try tree(dir), before)
        // A subdirectory among output names, or a link named like an output: not a look-alike, never replaced.
        try FileManager.default.createDirectory(at: mine.appendingPathComponent("units.geojson"), withIntermediateDirectories: false)
        let withSubdirectory = try tree(dir)
        assertRefused(try run(helsinki + ["--out", mine.path, "--overwrite"]), "it holds units.geojson, which flyr-link does not write")
        XCTAssertEqual(try tree(dir), withSubdirectory)
        try FileManager.default.removeItem(at: mine.appendingPathComponent("units.geojson"))
        try FileManager.default.createSymbolicLink(atPath: mine.appendingPathComponent("units.geojson").path, withDestinationPath: "/etc/hostname")
        let withLink = try tree(dir)
        assertRefused(try run(helsinki + ["--out", mine.path, "--overwrite"]), "it holds units.geojson, which flyr-link does not write")
        XCTAssertEqual(try tree(dir), withLink)
        try FileManager.default.removeItem(at: mine.appendingPathComponent("units.geojson"))
        // Output names only, told: replaced.
        let r = try run(helsinki + ["--out", mine.path, "--overwrite"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: mine.appendingPathComponent(OutputMarker.name).path))
    }

    func testAFileInTheWayOfADirectoryOutputIsKept() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let file = dir.appendingPathComponent("out")
        try Data("my file\n".utf8).write(to: file)
        let before = try tree(dir)
        assertRefused(try run(helsinki + ["--out", file.path, "--overwrite"]), "it is a file, not a directory")
        XCTAssertEqual(try tree(dir), before)
    }

    // MARK: symbolic links and special files as --out (items 1, 13)

    func testOutThroughASymbolicLinkReplacesTheDirectoryItNames() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let real = dir.appendingPathComponent("real")
        XCTAssertEqual(try run(helsinki + ["--out", real.path]).status, 0)
        let link = dir.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real")
        let r = try run(helsinki + ["--out", link.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "real", "the link is kept")
        XCTAssertTrue(FileManager.default.fileExists(atPath: real.appendingPathComponent("links.csv").path))
        // A link to the user's directory is judged as that directory.
        let project = dir.appendingPathComponent("project")
        try sourceTree(project)
        let toProject = dir.appendingPathComponent("to-project")
        try FileManager.default.createSymbolicLink(atPath: toProject.path, withDestinationPath: project.path)
        let before = try tree(dir)
        assertRefused(try run(helsinki + ["--out", toProject.path, "--overwrite"]), "refusing to replace \(project.path): it holds README.md")
        XCTAssertEqual(try tree(dir), before)
    }

    func testADanglingOrLoopingLinkAsOutIsNamedForWhatItIs() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let dangling = dir.appendingPathComponent("dangling")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "nowhere")
        let loop = dir.appendingPathComponent("loop")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop")
        let before = try tree(dir)
        assertRefused(try run(helsinki + ["--out", dangling.path]), "cannot use \(dangling.path) as --out: it is a symbolic link to nowhere, which does not exist")
        assertRefused(try run(helsinki + ["--out", loop.path]), "cannot use \(loop.path) as --out: it is a loop of symbolic links")
        assertRefused(try run(helsinki + ["--out", dangling.path + "/out"]), "\(dangling.path) is a symbolic link to nowhere, which does not exist")
        XCTAssertEqual(try tree(dir), before)
    }

    func testAFIFOAsOutIsRefusedUntouched() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let fifo = dir.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        for extra in [[], ["--overwrite"], ["--format", "gpkg", "--overwrite"]] {
            assertRefused(try run(helsinki + ["--out", fifo.path] + extra), "(--out): it is a FIFO, not a regular file or directory")
        }
        var info = stat()
        XCTAssertEqual(lstat(fifo.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a FIFO")
    }

    // MARK: --write-evidence (item 3)

    func testEvidenceReplacesItsOwnFileAndAUsersOnlyWhenTold() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let evidence = dir.appendingPathComponent("evidence.csv")
        let out = dir.appendingPathComponent("out").path
        let first = try run(helsinki + ["--out", out, "--write-evidence", evidence.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        let written = try Data(contentsOf: evidence)
        XCTAssertTrue(EvidenceTarget.isEvidence(evidence.path))
        // Its own evidence: replaced with the same bytes; through a symbolic link, the file it names.
        let link = dir.appendingPathComponent("evidence-link.csv")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "evidence.csv")
        XCTAssertEqual(try run(helsinki + ["--out", out, "--write-evidence", link.path]).status, 0)
        XCTAssertEqual(try Data(contentsOf: evidence), written)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "evidence.csv")
        // A user's file: kept, unless --overwrite.
        let notes = dir.appendingPathComponent("notes.csv")
        try Data("mine,1\n".utf8).write(to: notes)
        assertRefused(try run(helsinki + ["--out", out, "--write-evidence", notes.path]), "it is a file flyr-link did not write")
        XCTAssertEqual(try String(contentsOf: notes, encoding: .utf8), "mine,1\n")
        XCTAssertEqual(try run(helsinki + ["--out", out, "--write-evidence", notes.path, "--overwrite"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: notes), written)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }, [])
    }

    func testEvidenceOverAnInputIsRefusedBeforeAnythingIsRead() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let buildings = dir.appendingPathComponent("b.geojson"), addresses = dir.appendingPathComponent("a.geojson")
        try FileManager.default.copyItem(atPath: TestPaths.helsinkiBuildings, toPath: buildings.path)
        try FileManager.default.copyItem(atPath: TestPaths.helsinkiAddresses, toPath: addresses.path)
        let link = dir.appendingPathComponent("alias.geojson")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "a.geojson")
        let before = try tree(dir)
        for (target, overwrite) in [(addresses.path, false), (buildings.path, true), (link.path, true)] {
            let r = try ProcessRunner.flyrLink(["run", "--buildings", "b.geojson", "--addresses", "a.geojson", "--out", "out", "--quiet",
                                                "--write-evidence", target] + (overwrite ? ["--overwrite"] : []), cwd: dir.path)
            assertRefused(r, "(--write-evidence): it is the input")
            XCTAssertEqual(try tree(dir), before, target)
        }
    }

    // MARK: empty layers (item 4)

    /// Helsinki's addresses in `format`, with no features (ogr2ogr with a filter no row passes).
    func emptyLayer(_ source: String, format: String, ext: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("empty-\(format).\(ext)").path
        try ProcessRunner.ogr2ogr(["-f", format, path, source, "-where", "1 = 0"] + (format == "CSV" ? ["-lco", "GEOMETRY=AS_WKT"] : []))
        return path
    }

    func testAnEmptyLayerInEveryFormatFailsAndKeepsThePreviousOutput() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out").path
        XCTAssertEqual(try run(helsinki + ["--out", out]).status, 0)
        let before = try tree(URL(fileURLWithPath: out))
        for (format, ext) in [("GeoJSON", "geojson"), ("CSV", "csv"), ("GPKG", "gpkg"), ("FlatGeobuf", "fgb")] {
            let addresses = try emptyLayer(TestPaths.helsinkiAddresses, format: format, ext: ext, in: dir)
            let name = (addresses as NSString).lastPathComponent
            let a = try run(["--buildings", TestPaths.helsinkiBuildings, "--addresses", addresses, "--out", out])
            assertRefused(a, "addresses: \(addresses) has no features; nothing was written (pass --allow-empty to write an empty campaign)")
            let buildings = try emptyLayer(TestPaths.helsinkiBuildings, format: format, ext: ext, in: dir)
            let b = try run(["--buildings", buildings, "--addresses", TestPaths.helsinkiAddresses, "--out", out])
            assertRefused(b, "buildings: \(buildings) has no features")
            XCTAssertEqual(try tree(URL(fileURLWithPath: out)), before, name)
        }
        // Meant: --allow-empty writes the empty campaign.
        let empty = try emptyLayer(TestPaths.helsinkiAddresses, format: "GeoJSON", ext: "geojson", in: dir)
        let allowed = try run(["--buildings", TestPaths.helsinkiBuildings, "--addresses", empty, "--out", out, "--allow-empty"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(try OutputFiles.csv(out + "/links.csv").count, 0)
    }

    func testAnEmptyLayerNeverEmptiesACampaignInPostGIS() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        let campaign = "6f1c2d3e-4a5b-5c6d-8e7f-8091a2b3c4d5"
        XCTAssertEqual(try run(helsinki + ["--out", db, "--campaign", campaign]).status, 0)
        let count = "SELECT count(*) FROM campaign_addresses WHERE campaign_id = $1"
        XCTAssertEqual(try TestDatabase.query(db, count, [campaign]).first?.first, "1377")
        let dir = TestPaths.temporaryDirectory(self)
        let empty = try emptyLayer(TestPaths.helsinkiAddresses, format: "GeoJSON", ext: "geojson", in: dir)
        let r = try run(["--buildings", TestPaths.helsinkiBuildings, "--addresses", empty, "--out", db, "--campaign", campaign])
        assertRefused(r, "addresses: \(empty) has no features")
        XCTAssertEqual(try TestDatabase.query(db, count, [campaign]).first?.first, "1377", "the campaign's rows are kept")
    }

    func testAnEmptyLayerNeverPublishesAnEmptySnapshot() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let fixture = SnapshotFixture(dir: dir)
        try fixture.write()
        let first = try ProcessRunner.flyrLink(fixture.arguments + ["--quiet"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let current = fixture.current()
        XCTAssertNotNil(current)
        // (The campaign's lock file holds the PID of its last holder.)
        func versions() throws -> [String: Data] { try tree(fixture.root).filter { !$0.key.hasSuffix("/.lock") } }
        let before = try versions()
        try #"{"type":"FeatureCollection","features":[]}"#.write(toFile: fixture.addresses, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.flyrLink(fixture.arguments + ["--quiet"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("has no features"), r.stderr)
        XCTAssertEqual(fixture.current(), current, "current still names the last good version")
        XCTAssertEqual(try versions(), before)
    }

    func testASnapshotRootNeverHoldsAnInputOrIsASpecialFile() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let fixture = SnapshotFixture(dir: dir)
        try fixture.write()
        let fifo = dir.appendingPathComponent("fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let before = try tree(dir)
        func snapshot(root: String) throws -> ProcessResult {
            var arguments = fixture.arguments
            arguments[arguments.count - 1] = root
            return try ProcessRunner.flyrLink(arguments + ["--quiet"])
        }
        assertRefused(try snapshot(root: dir.path), "refusing to write in \(dir.path) (--root): it holds the input")
        assertRefused(try snapshot(root: fixture.addresses), "(--root): it is the input")
        assertRefused(try snapshot(root: fifo.path), "(--root): it is a FIFO")
        XCTAssertEqual(try tree(dir), before)
    }

    // MARK: a file-size limit (item 8)

    func testAWritePastAFileSizeLimitIsOneLineInEveryFormat() throws {
        let dir = TestPaths.temporaryDirectory(self)
        for (format, out) in [("dir", "d"), ("gpkg", "g.gpkg"), ("fgb", "f"), ("parquet", "p")] {
            let target = dir.appendingPathComponent(out).path
            XCTAssertEqual(try run(helsinki + ["--out", target, "--format", format]).status, 0)
            let before = try tree(dir)
            // 64 blocks of 1 KiB (bash's ulimit -f unit): links.csv alone is larger.
            let command = "ulimit -f 64; exec \"$0\" \"$@\""
            let r = try ProcessRunner.run("/bin/bash", ["-c", command, TestPaths.binary, "run"] + helsinki
                                          + ["--out", target, "--format", format, "--quiet"])
            assertRefused(r, "File too large; nothing was replaced at \(target)")
            XCTAssertEqual(try tree(dir), before, "\(format): the previous output untouched, no staging left")
        }
    }

    // MARK: a previous output that cannot be removed (item 10)

    func testAPreviousOutputThatCannotBeRemovedIsRefusedNotLeftBehind() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try run(helsinki + ["--out", out.path]).status, 0)
        // Another user's view: root may remove anything, so the run is made as nobody where the test is root.
        let asRoot = getuid() == 0
        if asRoot {
            XCTAssertEqual(chown(dir.path, 65534, 65534), 0)
            XCTAssertEqual(chmod(dir.path, 0o755), 0)
        }
        XCTAssertEqual(chmod(out.path, 0o555), 0)
        defer { chmod(out.path, 0o755) }
        let before = try tree(dir)
        let prefix = asRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", TestPaths.binary] : [TestPaths.binary]
        let r = try ProcessRunner.run(prefix[0], Array(prefix.dropFirst()) + ["run"] + helsinki + ["--out", out.path, "--quiet"])
        assertRefused(r, "refusing to replace \(out.path): its files cannot be removed (Permission denied)")
        XCTAssertEqual(try tree(dir), before, "nothing left behind, hidden or not")
    }

    // MARK: the distributed run's files (a plan, a tile's decisions)

    func testAPlanOrTileNeverWritesOverAnInput() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let buildings = dir.appendingPathComponent("b.geojson").path, addresses = dir.appendingPathComponent("a.geojson").path
        try FileManager.default.copyItem(atPath: TestPaths.helsinkiBuildings, toPath: buildings)
        try FileManager.default.copyItem(atPath: TestPaths.helsinkiAddresses, toPath: addresses)
        let before = try tree(dir)
        let plan = try ProcessRunner.flyrLink(["plan", "--buildings", buildings, "--addresses", addresses, "--out", addresses, "--quiet"])
        assertRefused(plan, "refusing to replace \(addresses) (--out): it is the input")
        let planDir = try ProcessRunner.flyrLink(["plan", "--buildings", buildings, "--addresses", addresses, "--out", dir.path, "--quiet"])
        assertRefused(planDir, "(--out): it holds the input")
        XCTAssertEqual(try tree(dir), before)
    }
}
