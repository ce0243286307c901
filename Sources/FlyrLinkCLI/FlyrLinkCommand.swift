import ArgumentParser
import FlyrLink

@main
struct FlyrLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyr-link",
        abstract: "Link address points to building footprints for door-to-door campaigns.",
        version: FlyrLinkVersion.string,
        subcommands: [RunCommand.self, InspectCommand.self, SnapshotCommand.self, ReportCommand.self]
    )

    /// The heap's policy is the process's, set before anything runs.
    static func main() {
        HeapTrim.keepFreedMemoryForReuse()
        main(nil)
    }
}
