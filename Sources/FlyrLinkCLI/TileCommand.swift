import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link tile`: one pass of one tile of a plan, and the sum of the tiles' measures.
struct TileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile",
        abstract: "One tile of a distributed run: its part of the run's measures, its addresses' decisions, or its part of the outputs.",
        discussion: "A distributed run: flyr-link plan --out DIR/plan.json; for every tile, tile measures; tile sum --plan; for every tile, tile link --out DIR/tile-NNNNNN.decisions (K in six digits); for every tile, tile outputs; then flyr-link run --parts DIR merges the tiles' parts into the outputs (or flyr-link run --decisions DIR makes them on one machine) (docs/distributed.md).",
        subcommands: [TileMeasuresCommand.self, TileSumCommand.self, TileLinkCommand.self, TileOutputsCommand.self]
    )
}

/// Which tile of which plan, shared by the passes.
struct TileOptions: ParsableArguments {
    @Option(help: "The plan (flyr-link plan).")
    var plan: String

    // (Unconditional: `--tile -1` is the value -1, told to be ≥ 0, not a flag leaving --tile without one.)
    @Option(parsing: .unconditional, help: "The tile's index in the plan.")
    var tile: Int

    @Option(help: "Worker threads (default: the machine's cores). Outputs do not depend on it.")
    var threads: Int?

    /// The plan's directory (absolute: a plan named without one is in the current directory), where
    /// the tiles' decisions and parts are.
    var planDirectory: String {
        (planPath as NSString).deletingLastPathComponent
    }

    /// The plan's absolute path.
    var planPath: String { URL(fileURLWithPath: plan).standardizedFileURL.path }

    func validate() throws {
        if tile < 0 { throw ValidationError("--tile must be ≥ 0") }
        if let threads, let why = OptionLimits.countProblem("--threads", threads, maximum: OptionLimits.threads) { throw ValidationError(why) }
    }

    /// The plan's options for this tile's `pass`; the link pass's measures must be the sum of
    /// every tile of this plan.
    /// (With the SHA-256 of the plan's bytes, which the pass's file names.)
    func runner(_ pass: TileTask.Pass, measures: TileMeasures?) throws -> (runner: TileRunner, plan: String) {
        let (plan, digest) = try TilePlan.readWithDigest(self.plan)
        guard tile < plan.tiles.count else { throw InputError("tile: the plan has \(plan.tiles.count) tiles; there is no tile \(tile)") }
        if let measures {
            guard measures.plan == digest, measures.tiles == Array(plan.tiles.indices) else {
                throw InputError("tile \(tile): the measures are not those of every tile of this plan (flyr-link tile sum --plan \(self.plan))")
            }
        }
        // (A layer the plan packed is never read in part: its tile must have its pack.)
        guard Set(plan.tiles[tile].packs.keys) == Set(plan.packed.map(\.rawValue)) else {
            throw InputError("tile \(tile): the plan does not name the tile's packs of \(plan.packed.map(\.rawValue).joined(separator: " and ")); make the plan again")
        }
        try plan.checkInputs(hashing: false)
        var options = plan.options
        if pass == .outputs {
            // The outputs pass writes what the run writes, with the plan's campaign (its links' ids).
            options.campaignID = plan.campaignID
            options.alsoReads.append(planDirectory)
        } else {
            options.only = .links
        }
        options.output = ""
        options.threads = threads ?? RunOptions.defaultThreads
        let task = TileTask(pass: pass, tile: plan.tiles[tile], frame: plan.frame, measures: measures?.measures,
                                packDirectory: TilePlan.packsPath(plan: planPath))
        return (TileRunner(options: options, task: task, decisions: pass == .outputs ? planDirectory : nil), digest)
    }
}
