import XCTest
@testable import FlyrLink

/// The README's commands as written: every `flyr-link …` it shows (code blocks, continuation lines
/// joined, and inline code) names a command that exists and only options that command takes, and
/// the one without placeholders runs; every script it tells a user to run exists and is executable.
/// (`SetupAndCLITests` checks the other way round: every option is in the README.)
final class ReadmeCommandsTests: XCTestCase {
    static var readme: String { get throws { try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8) } }

    /// The `flyr-link …` commands of the README, comments dropped.
    static func commands(in text: String) -> [String] {
        var found: [String] = []
        var inBlock = false, pending = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("```") { inBlock.toggle(); pending = ""; continue }
            if inBlock {
                let joined = pending + line.trimmingCharacters(in: .whitespaces)
                if joined.hasSuffix("\\") { pending = String(joined.dropLast()) + " "; continue }
                pending = ""
                if joined.hasPrefix("flyr-link ") { found.append(joined) }
            } else {
                for m in line.matches(of: #/`(flyr-link [^`]+)`/#) { found.append(String(m.1)) }
            }
        }
        return found.map { $0.split(separator: "#", maxSplits: 1).first.map(String.init) ?? $0 }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The subcommand words of a command (`run`, `snapshot diff`, `plan-share scan`), and the options it names.
    static func parse(_ command: String) -> (subcommand: [String], options: [String]) {
        let tokens = command.split(separator: " ").dropFirst().map(String.init)
        let subcommand = Array(tokens.prefix { $0.wholeMatch(of: #/[a-z]+(-[a-z]+)*/#) != nil })
        let options = command.matches(of: #/(?:^|[^A-Za-z0-9-])(--[a-z][a-z-]*|-[a-z])(?![A-Za-z0-9-])/#).map { String($0.1) }
        return (subcommand, options)
    }

    func testEveryFlyrLinkCommandInTheREADMENamesACommandAndOptionsThatExist() throws {
        let commands = Self.commands(in: try Self.readme)
        XCTAssertGreaterThan(commands.count, 10, "the README's commands were not found")
        var helps: [[String]: String] = [:]
        for command in commands {
            var (subcommand, options) = Self.parse(command)
            if subcommand == ["snapshot"] && options.contains(where: { $0 != "--version" }) { subcommand = ["snapshot", "build"] }
            if helps[subcommand] == nil {
                let help = try ProcessRunner.flyrLink(subcommand + ["--help"])
                XCTAssertEqual(help.status, 0, "`\(command)`: `flyr-link \(subcommand.joined(separator: " ")) --help` fails: \(help.stderr)")
                helps[subcommand] = help.stdout
            }
            let help = helps[subcommand]!
            for option in options where option != "--help" {
                let named = help.firstMatch(of: try Regex("(?:^|[^A-Za-z0-9-])" + NSRegularExpression.escapedPattern(for: option) + "(?![A-Za-z0-9-])")) != nil
                XCTAssertTrue(named, "the README's `\(command)` uses \(option), which `flyr-link \(subcommand.joined(separator: " "))` does not take")
            }
        }
    }

    func testTheScriptsTheREADMENamesExistAndRun() throws {
        let readme = try Self.readme
        let scripts = Set(readme.matches(of: #/(?:^|[^A-Za-z0-9_\/.-])((?:scripts|benchmarks|benchmarks\/link-model|Fuzz)\/[A-Za-z0-9_.-]+\.sh)/#).map { String($0.1) })
        XCTAssertGreaterThan(scripts.count, 3)
        for script in scripts.sorted() {
            let path = TestPaths.root.appendingPathComponent(script).path
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: path), "the README names \(script), which is not an executable file")
        }
    }

    /// The install section: the package named is this version's, and every man page named is one
    /// scripts/package-deb.sh makes (one per command: `flyr-link-snapshot-build` for `snapshot build`).
    func testTheREADMEsPackageIsThisVersionAndItsManPagesExist() throws {
        let readme = try Self.readme
        XCTAssertTrue(readme.contains("sudo apt install ./flyr-link_\(FlyrLinkVersion.string)_amd64.deb"), "the README's package is not flyr-link \(FlyrLinkVersion.string)'s")
        let dump = try ProcessRunner.flyrLink(["--experimental-dump-help"])
        XCTAssertEqual(dump.status, 0, dump.stderr)
        let tool = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var pages: Set<String> = []
        func add(_ command: [String: Any], under parent: String?) {
            let name = [parent, command["commandName"] as? String].compactMap { $0 }.joined(separator: "-")
            pages.insert(name)
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { add(sub, under: name) }
        }
        add(try XCTUnwrap(tool["command"] as? [String: Any]), under: nil)
        XCTAssertTrue(pages.isSuperset(of: ["flyr-link", "flyr-link-run", "flyr-link-snapshot-build"]), "\(pages.sorted())")
        let named = readme.matches(of: #/`(?:man )?(flyr-link(?:-[a-z]+)+)`/#).map { String($0.1) }
        XCTAssertGreaterThanOrEqual(named.count, 3)
        for page in named { XCTAssertTrue(pages.contains(page), "the README names the man page \(page), which no command has") }
    }

    /// The README's commands with placeholders filled: the demo's pipeline (its output moved to a
    /// temporary directory), `report OUT_DIR` on it, `inspect SRC --role addresses`, `--version`.
    func testTheREADMEsConcreteCommandsRun() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out").path
        let run = try ProcessRunner.flyrLink(["run", "pipelines/helsinki.toml", "--out", out, "--quiet"], cwd: TestPaths.root.path)
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try ProcessRunner.flyrLink(["report", out])
        XCTAssertEqual(report.status, 0, report.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/report.html"))
        let inspect = try ProcessRunner.flyrLink(["inspect", TestPaths.helsinkiAddresses, "--role", "addresses"])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        let version = try ProcessRunner.flyrLink(["--version"])
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertTrue(version.stdout.contains("GDAL"), version.stdout)
    }
}
