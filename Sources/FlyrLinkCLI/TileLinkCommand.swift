import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link tile link`: a tile's own addresses' decisions.
struct TileLinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Decide a tile's own addresses, given the run's measures (flyr-link tile sum), into a decisions file."
    )

    @OptionGroup var tile: TileOptions

    @Option(help: "The run's measures (flyr-link tile sum).")
    var measures: String

    @Option(name: [.short, .long], help: "Where to write the decisions (replaced whole); flyr-link run --decisions DIR reads DIR/\(TileDecisions.fileName(tile: 0)) and the others.")
    var out: String

    func run() throws {
        do {
            let (runner, plan) = try tile.runner(.link, measures: try TileMeasures.read(measures))
            try WritePath.checkFile(out, role: "--out", inputs: runner.options.inputLocations + [tile.planPath, measures])
            guard case .decisions(var decisions) = try runner.run() else {
                preconditionFailure("the link pass gives decisions")
            }
            decisions.plan = plan
            try decisions.write(to: out)
        } catch {
            CLIError.exit(with: error)
        }
    }
}
