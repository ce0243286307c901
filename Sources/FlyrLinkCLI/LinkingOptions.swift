import ArgumentParser
import FlyrLink

/// How linking runs; shared by `run` and `snapshot`.
struct LinkingOptions: ParsableArguments {
    // Unconditional: `--max-distance -5` is a value (refused by validate), not an unknown flag.
    @Option(parsing: .unconditional, help: "Proximity links reach at most this many metres (default \(Int(LinkOptions.defaultMaxDistance))).")
    var maxDistance: Double?

    @Option(help: "Townhouse rows: split into unit slices, or none.")
    var units: RunOptions.UnitsMode?

    @Option(help: "Worker threads (default: the machine's cores). Outputs do not depend on it.")
    var threads: Int?

    @Option(help: "GeoParquet reader: auto (GDAL's Parquet driver when present), gdal, or flyr (the project's own).")
    var parquetReader: RunOptions.ParquetReader?

    @Option(help: "Unit of the buildings' height field: m (default) or ft (converted to metres for height_m).")
    var heightUnit: RunOptions.HeightUnit?

    @Flag(help: "Write the output even when every feature of a layer was rejected (otherwise such a run fails and writes nothing).")
    var allowEmpty = false

    @Flag(name: [.short, .long], help: "No progress on stderr (warnings and errors are still written).")
    var quiet = false

    func validate() throws {
        if let threads, let why = OptionLimits.countProblem("--threads", threads, maximum: OptionLimits.threads) { throw ValidationError(why) }
        if let maxDistance, let why = OptionLimits.distanceProblem("--max-distance", maxDistance) { throw ValidationError(why) }
    }

    func apply(to s: inout RunRequest) {
        s.maxDistance = maxDistance
        s.units = units?.rawValue
        s.threads = threads
        s.parquetReader = parquetReader?.rawValue
        s.heightUnit = heightUnit?.rawValue
        if allowEmpty { s.allowEmpty = true }
    }

    var progress: ProgressRenderer {
        ProgressRenderer(enabled: !quiet && ProgressRenderer.stderrIsTerminal)
    }
}
