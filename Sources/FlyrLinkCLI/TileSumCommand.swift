import ArgumentParser
import FlyrLink
import Foundation

/// `flyr-link tile sum`: the run's measures from every tile's part.
struct TileSumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sum",
        abstract: "Add the tiles' parts of the run's measures into the run's (JSON)."
    )

    @Argument(help: "The tiles' parts (flyr-link tile measures), one per tile of the plan.")
    var parts: [String]

    @Option(name: [.short, .long], help: "Where to write the run's measures (replaced whole).")
    var out: String

    func run() throws {
        do {
            var sum = RunMeasures()
            for path in parts { sum.add(try RunMeasures.read(path)) }
            try sum.write(to: out)
        } catch {
            CLIError.exit(with: error)
        }
    }
}
