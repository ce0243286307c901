import ArgumentParser
import FlyrLink
import Foundation

@main
struct FlyrLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyr-link",
        abstract: "Link address points to building footprints for door-to-door campaigns.",
        version: FlyrLinkVersion.string,
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
        main(nil)
    }
}
