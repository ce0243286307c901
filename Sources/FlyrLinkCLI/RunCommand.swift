import ArgumentParser
import FlyrLink
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

    @Option(help: "Output directory (replaced atomically when the run succeeds), or postgresql://… / PG:<conninfo> to write the campaign's tables into PostGIS.")
    var out: String?

    @Option(help: "Campaign UUID the links belong to (default: derived from the input names).")
    var campaign: String?

    @Option(help: "Proximity links reach at most this many metres (default \(OutputDefaults.maxDistance)).")
    var maxDistance: Double?

    @Option(help: "Townhouse rows: split into unit slices, or none.")
    var units: String?

    @Option(help: "Worker threads (default: the machine's cores). Outputs do not depend on it.")
    var threads: Int?

    @Option(help: "Write only this output: links (links.csv, with report.json and rejects.csv).")
    var only: String?

    @Option(help: ArgumentHelp("Linking strategy: flyr, or naive (containment then nearest, the baseline).", visibility: .hidden))
    var matcher: String?

    @Option(help: "GeoParquet reader: auto (GDAL's Parquet driver when present), gdal, or flyr (the project's own).")
    var parquetReader: String?

    @Flag(help: "No progress on stderr.")
    var quiet = false

    func validate() throws {
        if let units, RunOptions.UnitsMode(rawValue: units) == nil { throw ValidationError("--units must be split or none") }
        if let only, only != "links" && only != "all" { throw ValidationError("--only takes links") }
        if let parquetReader, RunOptions.ParquetReader(rawValue: parquetReader) == nil {
            throw ValidationError("--parquet-reader must be auto, gdal or flyr")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if let maxDistance, !(maxDistance >= 0) { throw ValidationError("--max-distance must be ≥ 0 metres") }
    }

    func run() throws {
        do {
            var flags = RunSettings()
            sources.apply(to: &flags)
            flags.out = out
            flags.campaign = campaign
            flags.maxDistance = maxDistance
            flags.units = units
            flags.threads = threads
            flags.only = only
            flags.matcher = matcher
            flags.parquetReader = parquetReader
            let settings = try pipeline.map { p throws(InputError) in flags.merged(over: try PipelineFile.load(p)) } ?? flags
            let options = try settings.options()
            let progress = ProgressRenderer(enabled: !quiet && ProgressRenderer.stderrIsTerminal)
            let run = try LinkPipeline(options: options, observer: progress.observer).run()
            progress.event(.started(.write, detail: PostgresTarget.redacted(options.outputDirectory)))
            let t0 = Date()
            try RunWriter.write(run)
            progress.event(.finished(.write, detail: PostgresTarget.redacted(options.outputDirectory), seconds: Date().timeIntervalSince(t0)))
            print(RunSummaryText.make(run))
        } catch {
            CLIError.exit(with: error)
        }
    }
}

enum OutputDefaults {
    static let maxDistance = Int(LinkOptions.defaultMaxDistance)
}
