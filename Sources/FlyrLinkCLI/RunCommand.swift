import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link run`: link addresses to buildings and write the output directory.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Link addresses to buildings and write links, GeoJSON layers and a report.",
        discussion: "Give the sources as options, or a pipeline file (pipelines/NAME.toml) with the same keys; options override the file."
    )

    @Argument(help: "A pipeline file (TOML) describing the run.")
    var pipeline: String?

    @OptionGroup var sources: SourceOptions

    @OptionGroup var linking: LinkingOptions

    @Option(name: [.short, .long], help: "Output directory or GeoPackage file (replaced atomically when the run succeeds), or postgresql://… / PG:<conninfo> to write the campaign's tables into PostGIS.")
    var out: String?

    @Option(help: "Output layout: dir (GeoJSON and CSV), gpkg (one GeoPackage file), fgb (a directory of FlatGeobuf and CSV) or parquet (a directory of GeoParquet and CSV). Default: gpkg when --out ends in .gpkg, else dir.")
    var format: OutputFormat?

    @Flag(help: "Also replace a directory holding only files named as a run names its outputs but not flyr-link's marker, any GeoPackage at a .gpkg --out, and a file at --write-evidence. Nothing else is ever replaced: a directory or file of anything else is refused.")
    var overwrite = false

    @Option(help: "Campaign UUID the links belong to (default: a UUIDv5 of the inputs' canonical absolute paths and layers).")
    var campaign: String?

    @Option(help: "Write only this output: links (links.csv, with report.json and rejects.csv).")
    var only: RunOptions.OutputSelection?

    @Flag(name: .customLong("no-html"), help: "Do not write report.html (the page of maps and tables beside report.json).")
    var noHTML = false

    @Option(help: "Linking strategy: flyr (the link model, default), or naive (containment then nearest, the baseline).")
    var matcher: LinkOptions.Strategy?

    @Option(help: "A link model file (JSON) in place of the compiled-in one; benchmarks/link-model/fit.py writes them.")
    var linkModel: String?

    @Option(help: "Write every candidate building's features, claims and scores to this CSV file (for fitting a link model).")
    var writeEvidence: String?

    // Hidden from run --help: the last step of a distributed run, which docs/distributed.md and
    // `flyr-link tile --help` describe.
    @Option(help: ArgumentHelp("A directory holding a distributed run's plan.json and its tiles' decisions (flyr-link plan, flyr-link tile link): the links are those, not made again.", visibility: .hidden))
    var decisions: String?

    @Option(help: ArgumentHelp("A directory holding a distributed run's plan.json and its tiles' parts of the outputs (flyr-link tile outputs): the outputs are merged from those; no source is read.", visibility: .hidden))
    var parts: String?

    func validate() throws {
        if parts != nil, decisions != nil { throw ValidationError("--parts and --decisions: give one (the parts were made from the decisions)") }
        if parts != nil, writeEvidence != nil { throw ValidationError("--write-evidence: a run with --parts makes no evidence (its tiles did)") }
        if parts != nil, matcher == .naive { throw ValidationError("--parts: the tiles decided with the link model, not --matcher naive") }
        if decisions != nil, writeEvidence != nil { throw ValidationError("--write-evidence: a run with --decisions makes no evidence (its tiles did)") }
        if decisions != nil, matcher == .naive { throw ValidationError("--decisions: the tiles decided with the link model, not --matcher naive") }
        // Here as well as in the run's options: given as flags it is a usage error (exit 64).
        if let format, let out, let why = format.problem(out: out) { throw ValidationError(why) }
    }

    /// The finished run stays referenced until the process exits: freeing millions of small
    /// objects one at a time would add most of a second to a large run, for memory the exit
    /// returns anyway.
    nonisolated(unsafe) static var finished: LinkRun?

    func run() throws {
        InterruptCleanup.install()
        do {
            var flags = RunRequest()
            sources.apply(to: &flags)
            flags.out = out
            flags.format = format?.rawValue
            if overwrite { flags.overwrite = true }
            flags.campaign = campaign
            linking.apply(to: &flags)
            flags.only = only?.rawValue
            if noHTML { flags.html = false }
            flags.matcher = matcher?.rawValue
            flags.linkModel = linkModel
            flags.writeEvidence = writeEvidence
            let settings = try pipeline.map { p throws(InputError) in flags.merged(over: try PipelineFile.load(p)) } ?? flags
            var options = try settings.options()
            if let decisions { options.alsoReads.append(decisions) }
            // A directory that may not be replaced fails the run now, not after all the linking.
            try OutputTarget.check(options)
            let progress = linking.progress
            if let parts {
                progress.event(.started(.write, detail: options.output))
                let report = try TilePartsMerge.write(options, parts: parts, observer: progress.observer)
                progress.event(.finished(.write, detail: options.output, seconds: report.run.secondsTotal))
                for w in report.warnings { StandardError.line("warning: \(w.message)") }
                let c = report.counts
                print("\(c.linked) of \(c.addresses) addresses linked to \(c.buildingsWithAddresses) of \(c.buildings) buildings (merged from the tiles' parts) → \(options.output)")
                return
            }
            let pipeline = decisions.map { LinkPipeline(options: options, observer: progress.observer, decisions: DistributedDecisions(directory: $0)) }
                ?? LinkPipeline(options: options, observer: progress.observer)
            let run = try pipeline.run()
            progress.event(.started(.write, detail: PostgresTarget.redacted(options.output)))
            let t0 = Date()
            try RunWriter.write(run, observer: progress.observer)
            progress.event(.finished(.write, detail: PostgresTarget.redacted(options.output), seconds: Date().timeIntervalSince(t0)))
            // Once written (a run that fails says one thing: why).
            for w in run.report.warnings { StandardError.line("warning: \(w.message)") }
            // A database keeps campaigns side by side: say which one a run without --campaign wrote.
            if options.campaignIDIsDerived, PostgresTarget.conninfo(from: options.output) != nil {
                StandardError.line("campaign \(run.campaignID) (derived from the inputs' absolute paths; give --campaign UUID to choose it)")
            }
            print(RunSummaryText.make(run))
            RunCommand.finished = run
        } catch {
            CLIError.exit(with: error)
        }
    }
}
