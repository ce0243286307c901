import XCTest
@testable import FlyrLink

/// Getting flyr-link on the PATH and what its command line says about itself: install.sh,
/// --version, short flags, progress stage names on a terminal, and the README and pipeline
/// files naming what exists.
final class SetupAndCLITests: XCTestCase {
    func testVersionNamesGDALGEOSPROJAndTheLinkModel() throws {
        let r = try ProcessRunner.flyrLink(["--version"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, r.stdout)
        XCTAssertEqual(lines.first, "flyr-link \(FlyrLinkVersion.built)")
        // The versions of the libraries loaded, as gdal-config and pkg-config report them.
        let gdal = try ProcessRunner.run("/usr/bin/gdal-config", ["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let proj = try ProcessRunner.run("/usr/bin/pkg-config", ["--modversion", "proj"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let geos = try ProcessRunner.run("/usr/bin/pkg-config", ["--modversion", "geos"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertFalse(gdal.isEmpty || proj.isEmpty || geos.isEmpty)
        XCTAssertEqual(lines.dropFirst().first, "GDAL \(gdal)")
        XCTAssertEqual(lines.dropFirst(2).first?.hasPrefix("GEOS \(geos)"), true, r.stdout)
        XCTAssertEqual(lines.dropFirst(3).first, "PROJ \(proj)")
        // The model as benchmarks/link-model/link-model.json (the file compiled in) describes itself.
        let file = try Data(contentsOf: TestPaths.root.appendingPathComponent("benchmarks/link-model/link-model.json"))
        let model = try XCTUnwrap(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        let sets = (model["fitted_on"] as? [String] ?? []).map { $0.firstMatch(of: #/\(([^()]+)\)$/#).map { String($0.1) } ?? $0 }
        XCTAssertFalse(sets.isEmpty)
        let digest = SHA256.hash(Array(LinkModelFile.json.utf8)).prefix(12)
        let second = ((model["second_stage"] as? [String: Any])?["trees"] as? [Any]).map { " + \($0.count) in a second stage" } ?? ""
        XCTAssertEqual(lines.last, "link model: flyr-link-model version \(model["version"] as! Int), \((model["trees"] as! [Any]).count) trees\(second), "
                       + "fitted on \(sets.joined(separator: ", ")); sha256 \(digest)")
        // A subcommand's --version says the same.
        for command in [["run"], ["inspect"], ["snapshot", "build"]] {
            XCTAssertEqual(try ProcessRunner.flyrLink(command + ["--version"]).stdout, r.stdout, command.joined(separator: " "))
        }
    }

    func testShortFlagsForOutAndQuiet() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let common = ["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses, "--only", "links"]
        let short = try ProcessRunner.flyrLink(common + ["-o", dir.appendingPathComponent("short").path, "-q"])
        XCTAssertEqual(short.status, 0, short.stderr)
        XCTAssertEqual(short.stderr, "")
        let long = try ProcessRunner.flyrLink(common + ["--out", dir.appendingPathComponent("long").path, "--quiet"])
        XCTAssertEqual(long.status, 0, long.stderr)
        let links = try String(contentsOf: dir.appendingPathComponent("short/links.csv"), encoding: .utf8)
        XCTAssertGreaterThan(links.split(separator: "\n").count, 1000)
        XCTAssertEqual(links, try String(contentsOf: dir.appendingPathComponent("long/links.csv"), encoding: .utf8))
    }

    /// The options of closed sets list their values in --help and in the completions; the distributed
    /// run's --decisions and --parts are in neither (`--help-hidden` shows them).
    func testRunHelpListsTheValuesAndNotTheDistributedRunsOptions() throws {
        let help = try ProcessRunner.flyrLink(["run", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        let flat = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // help wraps lines
        for values in ["--format <format>", "(values: dir, gpkg, fgb, parquet)", "(values: all, links)", "(values: flyr, naive)",
                       "(values: split, none)", "(values: auto, gdal, flyr)", "(values: m, ft)"] {
            XCTAssertTrue(flat.contains(values), "\(values) in: \(help.stdout)")
        }
        XCTAssertFalse(help.stdout.contains("--decisions") || help.stdout.contains("--parts"), help.stdout)
        let hidden = try ProcessRunner.flyrLink(["run", "--help-hidden"]).stdout
        XCTAssertTrue(hidden.contains("--decisions <decisions>") && hidden.contains("--parts <parts>"), hidden)
        let inspect = try ProcessRunner.flyrLink(["inspect", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(inspect.contains("(values: buildings, addresses; default: buildings)"), inspect)
        let bash = try ProcessRunner.flyrLink(["--generate-completion-script", "bash"]).stdout.split(separator: "\n").map(String.init)
        let format = try XCTUnwrap(bash.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "'--format')" })
        XCTAssertTrue(["dir", "gpkg", "fgb", "parquet"].allSatisfy { bash[format + 1].contains("'\($0)'") }, bash[format + 1])
        XCTAssertFalse(bash.contains { $0.contains("--decisions") || $0.contains("--parts") })
    }

    /// On a terminal (a pseudo-terminal from script(1)): one line per stage, every stage named
    /// once, and the features read so far shown during the read.
    func testProgressOnATerminalNamesEachStageOnceAndCountsTheRead() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let command = [TestPaths.binary, "run", TestPaths.root.appendingPathComponent("pipelines/helsinki.toml").path, "-o", out]
            .map { "'\($0)'" }.joined(separator: " ")
        let r = try ProcessRunner.run("/usr/bin/script", ["-qec", command, "/dev/null"])
        XCTAssertEqual(r.status, 0, r.stdout)
        // Each stage's line, rewritten in place: "\r<stage> … <detail>" while it runs, "\r<stage>  0.01s  <detail>\n" once done.
        let pieces = r.stdout.components(separatedBy: "\u{1B}[2K\r")
        let finished = pieces.compactMap { p -> String? in
            guard let m = p.firstMatch(of: #/^([a-z]+) +[0-9]+\.[0-9]+s /#) else { return nil }
            return String(m.1)
        }
        XCTAssertEqual(finished, PipelineStage.allCases.map(\.rawValue), r.stdout)
        XCTAssertTrue(pieces.contains { $0.firstMatch(of: #/^read … [0-9]+ buildings, [0-9]+ addresses read \([0-9]+ features\/s\)/#) != nil },
                      "the read shows the features read so far: \(r.stdout)")
        XCTAssertTrue(r.stdout.contains("flyr-link: 1377 addresses"), r.stdout)
    }

    /// scripts/install.sh PREFIX puts both tools in PREFIX/bin, where a shell finds them.
    /// (The binaries of this build are installed: FLYR_INSTALL_FROM skips the release build.)
    func testInstallPutsFlyrLinkAndFlyrSynthOnThePath() throws {
        let prefix = TestPaths.temporaryDirectory(self).appendingPathComponent("prefix with space").path
        let built = URL(fileURLWithPath: TestPaths.binary).deletingLastPathComponent().path
        let r = try ProcessRunner.run(TestPaths.root.appendingPathComponent("scripts/install.sh").path, [prefix],
                                      environment: ["FLYR_INSTALL_FROM": built])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("installed \(prefix)/bin/flyr-link and \(prefix)/bin/flyr-synth"), r.stdout)
        let path = "\(prefix)/bin:/usr/bin:/bin"
        let link = try ProcessRunner.run("/bin/sh", ["-c", "flyr-link --version"], environment: ["PATH": path])
        XCTAssertEqual(link.status, 0, link.stderr)
        XCTAssertTrue(link.stdout.hasPrefix("flyr-link \(FlyrLinkVersion.built)\nGDAL "), link.stdout)
        let synth = try ProcessRunner.run("/bin/sh", ["-c", "flyr-synth --help"], environment: ["PATH": path])
        XCTAssertEqual(synth.status, 0, synth.stderr)
        XCTAssertTrue(synth.stdout.contains("generate"), synth.stdout)
        // Again over the installed copies: replaced, not refused.
        XCTAssertEqual(try ProcessRunner.run(TestPaths.root.appendingPathComponent("scripts/install.sh").path, [prefix],
                                             environment: ["FLYR_INSTALL_FROM": built]).status, 0)
        // Nothing built there: one line, non-zero.
        let missing = try ProcessRunner.run(TestPaths.root.appendingPathComponent("scripts/install.sh").path, [prefix],
                                            environment: ["FLYR_INSTALL_FROM": "/nonexistent"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertEqual(missing.stderr, "install.sh: /nonexistent/flyr-link is not built\n")
    }

    /// Every option of every command is in the README (`snapshot build`'s and `--matcher` too),
    /// and the files the pipeline files cite exist.
    func testTheREADMENamesEveryOptionAndThePipelineFilesCiteFilesThatExist() throws {
        let readme = try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        for command in [["run"], ["inspect"], ["snapshot", "build"], ["snapshot", "diff"]] {
            let help = try ProcessRunner.flyrLink(command + ["--help"]).stdout
            let options = Set(help.matches(of: #/--[a-z][a-z-]+/#).map { String($0.0) }).subtracting(["--help"])
            XCTAssertFalse(options.isEmpty)
            for option in options.sorted() { XCTAssertTrue(readme.contains(option), "\(command.joined(separator: " ")) \(option) is not in the README") }
        }
        for phrase in ["flyr-link snapshot build", "--matcher naive", "scripts/install.sh", "-o DIR", "`-q`"] {
            XCTAssertTrue(readme.contains(phrase), phrase)
        }
        let pipelines = TestPaths.root.appendingPathComponent("pipelines")
        var cited = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: pipelines.path) where name.hasSuffix(".toml") {
            let text = try String(contentsOf: pipelines.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("#") {
                for m in line.matches(of: #/[A-Za-z0-9_.\/-]+\.(md|toml|geojson)/#) {
                    let path = String(m.0)
                    let fromRoot = TestPaths.root.appendingPathComponent(path).path, fromFile = pipelines.appendingPathComponent(path).path
                    XCTAssertTrue(FileManager.default.fileExists(atPath: fromRoot) || FileManager.default.fileExists(atPath: fromFile),
                                  "\(name) cites \(path), which does not exist")
                    cited += 1
                }
            }
        }
        XCTAssertGreaterThan(cited, 0)
    }
}
