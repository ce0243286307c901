import ArgumentParser
import FlyrLink
import Foundation

@main
struct FlyrLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyr-link",
        abstract: "Link address points to building footprints for door-to-door campaigns.",
        version: FlyrLinkVersion.built,
        subcommands: [RunCommand.self, InspectCommand.self, SnapshotCommand.self, ReportCommand.self, PlanCommand.self, PlanShareCommand.self, TileCommand.self]
    )

    /// The heap's policy is the process's, set before anything runs.
    static func main() {
        HeapTrim.keepFreedMemoryForReuse()
        // A write past a file-size limit (`ulimit -f`) then fails with EFBIG, said in one line with the
        // staging removed, instead of killing the process where it stands.
        signal(SIGXFSZ, SIG_IGN)
        // `--version` names the libraries and the link model too (ArgumentParser's version is a
        // fixed string, made for every command: asking GDAL and PROJ then would load them for every run).
        // (`flyr-link run --version` and the like too: ArgumentParser offers --version on every subcommand.)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.last == "--version", arguments.dropLast().allSatisfy({ ["run", "inspect", "snapshot", "build", "diff"].contains($0) }) {
            print(VersionReport.text)
            return
        }
        run(arguments)
    }

    /// ArgumentParser's `main`, but a usage error is one line on stderr (exit 64), as every other
    /// failure is: `flyr-link: error: MESSAGE (see flyr-link SUBCOMMAND --help)`.
    static func run(_ arguments: [String]) {
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(withUsageError: error, arguments: arguments)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    private static func exit(withUsageError error: Error, arguments: [String]) -> Never {
        let code = exitCode(for: error)
        guard code != .success else { exit(withError: error) }  // --help and the like: as ArgumentParser prints them
        var message = ConnectionSecrets.masked(message(for: error).replacingOccurrences(of: "\n", with: " "))
        if message.hasSuffix(".") { message.removeLast() }  // (ArgumentParser's sentences end in one; ours go on)
        let help = (["flyr-link"] + subcommandPath(arguments) + ["--help"]).joined(separator: " ")
        FileHandle.standardError.write(Data("flyr-link: error: \(message) (see \(help))\n".utf8))
        Foundation.exit(code.rawValue)
    }

    /// The subcommand names at the head of `arguments` (`run`, `tile link`, …).
    private static func subcommandPath(_ arguments: [String]) -> [String] {
        var path: [String] = [], commands = configuration.subcommands
        for argument in arguments {
            guard let next = commands.first(where: { $0._commandName == argument }) else { break }
            path.append(argument)
            commands = next.configuration.subcommands
        }
        return path
    }
}
