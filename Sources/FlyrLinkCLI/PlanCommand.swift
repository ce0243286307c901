import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link plan`: cut a run into tiles for a distributed run (docs/distributed.md).
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Cut a run into tiles of nearly equal address counts, for a distributed run (flyr-link tile, then run --parts or run --decisions).",
        discussion: "Takes the sources and linking options of `flyr-link run`; writes the plan (JSON): the run's options, its metric frame, the inputs' fingerprints, and each tile's box and halos. With --shares, made from the files of `flyr-link plan-share` in that directory, not from a read of the sources."
    )

    @OptionGroup var sources: PlanSourcesOptions

    @Option(help: "How many tiles (default: one per 100,000 addresses, at least 1).")
    var tiles: Int?

    @Option(help: "The directory of the shares' scans, frame and measures (flyr-link plan-share): the plan is made from them.")
    var shares: String?

    @Option(name: [.short, .long], help: "Where to write the plan (JSON; replaced whole).")
    var out: String

    func validate() throws {
        if let tiles, let why = OptionLimits.countProblem("--tiles", tiles, maximum: OptionLimits.tiles) { throw ValidationError(why) }
    }

    func run() throws {
        do {
            let pipeline = try sources.pipeline(out: out)
            try WritePath.checkFile(out, role: "--out", inputs: pipeline.options.inputLocations + (shares.map { [$0] } ?? []))
            let count: TileCount = tiles.map { .exact($0) } ?? .perAddresses(100_000)
            let planner = Planner(pipeline)
            let made = try shares.map { try planner.plan(tiles: count, shares: $0) } ?? planner.plan(tiles: count)
            let plan = try made.write(to: out)
            let packed = plan.packed.isEmpty ? "" : "; the tiles' packs of the \(plan.packed.map(\.rawValue).joined(separator: " and ")) → \(TilePlan.packsPath(plan: out))"
            print("plan: \(plan.tiles.count) tiles of \(plan.addresses) addresses and \(plan.buildings) buildings → \(out)\(packed)")
        } catch {
            CLIError.exit(with: error)
        }
    }
}
