import ArgumentParser
import FlyrLink

/// The sources and linking options a plan is made with: `plan` and every `plan-share` step take
/// the same (a distributed run's driver gives each the run's own).
struct PlanSourcesOptions: ParsableArguments {
    @Argument(help: "A pipeline file (TOML) describing the run.")
    var pipeline: String?

    @OptionGroup var sources: SourceOptions

    @OptionGroup var linking: LinkingOptions

    @Option(help: "The campaign's UUID, as flyr-link run takes it: the tiles' outputs pass writes it into the links' ids.")
    var campaign: String?

    @Option(help: "What the run writes: links (links.csv, rejects.csv, report.json only) or all (the default); the tiles' outputs pass writes the same.")
    var only: RunOptions.OutputSelection?

    @Option(help: "A link model file (JSON) in place of the compiled-in one.")
    var linkModel: String?

    /// The run's options; `out`: the output the run is named after when none is given.
    func options(out: String) throws -> RunOptions {
        var flags = RunRequest()
        sources.apply(to: &flags)
        linking.apply(to: &flags)
        flags.linkModel = linkModel
        flags.only = only?.rawValue
        flags.campaign = campaign
        var settings = try pipeline.map { p throws(InputError) in flags.merged(over: try PipelineFile.load(p)) } ?? flags
        settings.out = settings.out ?? out
        return try settings.options()
    }

    func pipeline(out: String) throws -> LinkPipeline {
        LinkPipeline(options: try options(out: out), observer: linking.progress.observer)
    }
}
