import XCTest
@testable import FlyrLink

/// `--out` replaces only what flyr-link wrote, never the current directory or a directory holding
/// an input, and leaves no temporary directory behind: not after a kill (the next run removes it),
/// nor after SIGINT/SIGTERM (the run removes its own).
final class OutputSafetyTests: XCTestCase {
    func runArguments(out: String, _ extra: [String] = []) -> [String] {
        ["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
         "--out", out, "--quiet", "--threads", "1"] + extra
    }

    func contents(_ dir: URL) throws -> [String: Data] { try OutputFiles.everyFile(dir) }

    /// A directory of the user's: files at two levels.
    func userDirectory(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data("keep me\n".utf8).write(to: url.appendingPathComponent("thesis.tex"))
        try Data([0, 1, 2, 255]).write(to: url.appendingPathComponent("notes/data.bin"))
    }

    func hiddenEntries(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }.sorted()
    }

    /// A PID that named a process a moment ago and names none now.
    func deadPID() throws -> pid_t {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(kill(p.processIdentifier, 0), -1)
        return p.processIdentifier
    }

    func testANonEmptyDirectoryOfUserFilesIsRefusedAndUntouched() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let mine = dir.appendingPathComponent("mine")
        try userDirectory(mine)
        let before = try contents(mine)
        let r = try ProcessRunner.flyrLink(runArguments(out: mine.path))
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "flyr-link: error: refusing to replace \(mine.path): it holds notes, which flyr-link does not write "
                       + "(choose an empty or new directory; a directory of other files is never replaced)\n")
        XCTAssertEqual(try contents(mine), before)
        XCTAssertEqual(try hiddenEntries(dir), [], "refused before anything was staged")
    }

    func testTheCurrentDirectoryAndItsParentsAreNeverReplaced() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let project = dir.appendingPathComponent("project")
        try userDirectory(project)
        let before = try contents(dir)
        for (out, extra) in [(".", []), (".", ["--overwrite"]), ("..", ["--overwrite"]), (project.path, ["--overwrite"])] {
            let r = try ProcessRunner.flyrLink(runArguments(out: out, extra), cwd: project.path)
            XCTAssertEqual(r.status, 1, "\(out) \(extra)")
            XCTAssertTrue(r.stderr.contains("refusing to replace") && r.stderr.contains("it is the current directory or one of its parents"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertEqual(try contents(dir), before, "\(out) \(extra)")
        }
    }

    func testADirectoryHoldingAnInputIsNeverReplaced() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let inputs = dir.appendingPathComponent("inputs")
        try FileManager.default.createDirectory(at: inputs.appendingPathComponent("helsinki"), withIntermediateDirectories: true)
        let buildings = inputs.appendingPathComponent("helsinki/buildings.geojson").path
        let addresses = inputs.appendingPathComponent("addresses.geojson").path
        try FileManager.default.copyItem(atPath: TestPaths.helsinkiBuildings, toPath: buildings)
        try FileManager.default.copyItem(atPath: TestPaths.helsinkiAddresses, toPath: addresses)
        let before = try contents(inputs)
        for extra in [[], ["--overwrite"]] {
            let r = try ProcessRunner.flyrLink(["run", "--buildings", buildings, "--addresses", addresses, "--out", inputs.path, "--quiet"] + extra)
            XCTAssertEqual(r.status, 1)
            XCTAssertTrue(r.stderr.contains("refusing to replace \(inputs.path) (--out): it holds the input"), r.stderr)
            XCTAssertEqual(try contents(inputs), before)
        }
    }

    func testOverwriteNeverReplacesADirectoryOfTheUsersFiles() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let mine = dir.appendingPathComponent("mine")
        try userDirectory(mine)
        let before = try contents(mine)
        let r = try ProcessRunner.flyrLink(runArguments(out: mine.path, ["--overwrite"]))
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("refusing to replace \(mine.path): it holds notes, which flyr-link does not write"), r.stderr)
        XCTAssertFalse(r.stderr.contains("--overwrite"), "the refusal does not suggest a flag that would not help: \(r.stderr)")
        XCTAssertEqual(try contents(mine), before)
        XCTAssertEqual(try hiddenEntries(dir), [])
    }

    func testFlyrLinksOwnOutputIsReplacedWithOrWithoutTheMarker() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try ProcessRunner.flyrLink(runArguments(out: out.path)).status, 0)
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent(OutputMarker.name), encoding: .utf8), "flyr-link output directory, format 1\n")
        let second = try ProcessRunner.flyrLink(runArguments(out: out.path))
        XCTAssertEqual(second.status, 0, second.stderr)

        // Without the marker (a look-alike): output names only, replaced only with --overwrite.
        try FileManager.default.removeItem(at: out.appendingPathComponent(OutputMarker.name))
        try FileManager.default.removeItem(at: out.appendingPathComponent("units.geojson"))
        let lookAlike = try contents(out)
        let unmarked = try ProcessRunner.flyrLink(runArguments(out: out.path))
        XCTAssertEqual(unmarked.status, 1)
        XCTAssertTrue(unmarked.stderr.contains("has no .flyr-link-output marker (pass --overwrite if flyr-link wrote it)"), unmarked.stderr)
        XCTAssertEqual(try contents(out), lookAlike)
        let overwritten = try ProcessRunner.flyrLink(runArguments(out: out.path, ["--overwrite"]))
        XCTAssertEqual(overwritten.status, 0, overwritten.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(OutputMarker.name).path))

        // Marked, with a file of the user's among them: not flyr-link's to replace, whatever the flags.
        try Data("mine\n".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let before = try contents(out)
        for extra in [[], ["--overwrite"]] {
            let refused = try ProcessRunner.flyrLink(runArguments(out: out.path, extra))
            XCTAssertEqual(refused.status, 1)
            XCTAssertTrue(refused.stderr.contains("it holds notes.txt, which flyr-link does not write"), refused.stderr)
            XCTAssertEqual(try contents(out), before)
        }
    }

    func testStaleTemporarySiblingsAreRemovedAndLiveOnesKept() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try ProcessRunner.flyrLink(runArguments(out: out.path)).status, 0)
        func sibling(_ name: String, marker: Bool) throws -> URL {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try Data("partial\n".utf8).write(to: url.appendingPathComponent("links.csv"))
            if marker { try Data(OutputMarker.text.utf8).write(to: url.appendingPathComponent(OutputMarker.name)) }
            return url
        }
        let dead = try deadPID()
        _ = try sibling(".out.tmp-\(dead)", marker: false)  // killed before its marker: PID gone
        _ = try sibling(".out.old-\(dead)", marker: false)
        _ = try sibling(".out.tmp-\(getpid())", marker: true)  // a live PID, but nobody holds the lock
        let held = try sibling(".out.tmp-\(try deadPID())", marker: true)
        let heldMarker = open(held.appendingPathComponent(OutputMarker.name).path, O_RDONLY)
        XCTAssertEqual(flock(heldMarker, LOCK_EX | LOCK_NB), 0)
        defer { close(heldMarker) }
        let other = try sibling(".out.tmp-mine", marker: false)  // no PID: not a run's name, never touched

        let r = try ProcessRunner.flyrLink(runArguments(out: out.path))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try hiddenEntries(dir), [held.lastPathComponent, other.lastPathComponent].sorted(),
                       "only the sibling whose lock is held (and a name that is no sibling's) remain")
        XCTAssertEqual(try contents(held).keys.sorted(), [OutputMarker.name, "links.csv"])
    }

    func testSIGTERMAndSIGINTRemoveTheStagingDirectoryAndKeepThePreviousOutput() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out")
        XCTAssertEqual(try ProcessRunner.flyrLink(runArguments(out: out.path)).status, 0)
        let before = try contents(out)
        for (sig, status) in [(SIGTERM, Int32(143)), (SIGINT, Int32(130))] {
            let p = try BackgroundProcess(runArguments(out: out.path, ["--max-distance", "10"]), environment: [TestPause.variable: "staged"])
            XCTAssertTrue(p.waitFor("test pause at staged"), "never reached staged: \(p.stderr)")
            XCTAssertEqual(try hiddenEntries(dir), [".out.tmp-\(p.pid)"], "staging while paused")
            kill(p.pid, sig)
            p.process.waitUntilExit()
            XCTAssertEqual(p.process.terminationReason, .exit, "signal \(sig)")
            XCTAssertEqual(p.process.terminationStatus, status, "signal \(sig)")
            XCTAssertEqual(try hiddenEntries(dir), [], "signal \(sig): the staging directory is removed")
            XCTAssertEqual(try contents(out), before, "signal \(sig): the previous output is untouched")
        }
    }
}
