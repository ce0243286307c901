import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link tile measures`: a tile's own addresses' part of the run's measures.
struct TileMeasuresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measures",
        abstract: "Write a tile's part of the run's measures (JSON): how its addresses are placed, their numbering conventions."
    )

    @OptionGroup var tile: TileOptions

    @Option(name: [.short, .long], help: "Where to write the part (replaced whole).")
    var out: String

    func run() throws {
        do {
            let (runner, plan) = try tile.runner(.measures, measures: nil)
            guard case .measures(let part) = try runner.run() else {
                preconditionFailure("the measures pass gives measures")
            }
            try TileMeasures(plan: plan, tiles: [tile.tile], measures: part).write(to: out)
        } catch {
            CLIError.exit(with: error)
        }
    }
}
