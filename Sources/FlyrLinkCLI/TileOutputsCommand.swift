import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link tile outputs`: a tile's part of the outputs, from every tile's decisions.
struct TileOutputsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outputs",
        abstract: "Write a tile's part of the outputs (the rows of its own addresses and buildings), from the tiles' decisions beside the plan.",
        discussion: "Reads the decisions of the tiles around it from the plan's directory (tile-NNNNNN.decisions, written by tile link) and writes DIR/\(TileParts.directoryName(tile: 0)) and the others, which flyr-link run --parts DIR merges."
    )

    @OptionGroup var tile: TileOptions

    func run() throws {
        do {
            let (runner, plan) = try tile.runner(.outputs, measures: nil)
            try runner.writeParts(plan: plan, to: tile.planDirectory + "/" + TileParts.directoryName(tile: tile.tile))
        } catch {
            CLIError.exit(with: error)
        }
    }
}
