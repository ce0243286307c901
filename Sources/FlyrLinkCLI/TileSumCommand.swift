import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link tile sum`: the run's measures from every tile's part.
struct TileSumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sum",
        abstract: "Add the tiles' parts of the run's measures into the run's (JSON)."
    )

    @Option(help: "The plan (flyr-link plan): the parts must be its, one for each of its tiles.")
    var plan: String

    @Argument(help: "The tiles' parts (flyr-link tile measures).")
    var parts: [String]

    @Option(name: [.short, .long], help: "Where to write the run's measures (replaced whole).")
    var out: String

    func validate() throws {
        if parts.isEmpty { throw ValidationError("give the tiles' parts") }
    }

    func run() throws {
        do {
            try TileMeasures.sum(parts, plan: plan).write(to: out)
        } catch {
            CLIError.exit(with: error)
        }
    }
}
