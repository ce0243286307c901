import ArgumentParser
import FlyrLink
import Foundation

/// `flyr-link plan`: cut a run into tiles for a distributed run (docs/distributed.md).
struct PlanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Cut a run into tiles of nearly equal address counts, for a distributed run (flyr-link tile, then run --parts or run --decisions).",
        discussion: "Takes the sources and linking options of `flyr-link run`; writes the plan (JSON): the run's options, its metric frame, the inputs' fingerprints, and each tile's box and halos."
    )

    @Argument(help: "A pipeline file (TOML) describing the run.")
    var pipeline: String?

    @OptionGroup var sources: SourceOptions

    @OptionGroup var linking: LinkingOptions

    @Option(help: "The campaign's UUID, as flyr-link run takes it: the tiles' outputs pass writes it into the links' ids.")
    var campaign: String?

    @Option(help: "What the run writes: links (links.csv, rejects.csv, report.json only) or all (the default); the tiles' outputs pass writes the same.")
    var only: String?

    @Option(help: "How many tiles (default: one per 100,000 addresses, at least 1).")
    var tiles: Int?

    @Option(help: "A link model file (JSON) in place of the compiled-in one.")
    var linkModel: String?

    @Option(name: [.short, .long], help: "Where to write the plan (JSON; replaced whole).")
    var out: String

    func validate() throws {
        if let tiles, tiles < 1 { throw ValidationError("--tiles must be at least 1") }
        if let only, only != "links" && only != "all" { throw ValidationError("--only takes links or all") }
    }

    func run() throws {
        do {
            var flags = RunSettings()
            sources.apply(to: &flags)
            linking.apply(to: &flags)
            flags.linkModel = linkModel
            flags.only = only
            flags.campaign = campaign
            var settings = try pipeline.map { p throws(InputError) in flags.merged(over: try PipelineFile.load(p)) } ?? flags
            settings.out = settings.out ?? out
            let options = try settings.options()
            let pipeline = LinkPipeline(options: options, observer: linking.progress.observer)
            let plan = try pipeline.plan(tiles: tiles.map { .exact($0) } ?? .perAddresses(100_000)).write(to: out)
            let packed = plan.packed.isEmpty ? "" : "; the tiles' packs of the \(plan.packed.map(\.rawValue).joined(separator: " and ")) → \(TilePlan.packsPath(plan: out))"
            print("plan: \(plan.tiles.count) tiles of \(plan.addresses) addresses and \(plan.buildings) buildings → \(out)\(packed)")
        } catch {
            CLIError.exit(with: error)
        }
    }
}
