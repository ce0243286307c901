import Foundation

/// read → ingest → frame → index → match → split → assemble: a run in named stages, reporting
/// progress as events.
public struct LinkPipeline {
    public var options: RunOptions
    public var observer: PipelineObserver?
    /// Decisions made elsewhere, taken in place of the match stage's own (a distributed run's).
    package var decisions: (any DecisionSource)?

    public init(options: RunOptions, observer: PipelineObserver? = nil) {
        self.options = options
        self.observer = observer
    }

    package init(options: RunOptions, observer: PipelineObserver?, decisions: any DecisionSource) {
        self.init(options: options, observer: observer)
        self.decisions = decisions
    }

    /// A links-only run into a directory writes no geometry and no address fields: it keeps no lon/lat
    /// footprints, and of the address fields only those linking reads (`AddressField.linking`).
    package var writesRecords: Bool {
        options.only != .links || PostgresTarget.conninfo(from: options.output) != nil
    }

    /// The stages in order. Each consumes what no later stage reads and hands on what the next
    /// reads, so a run's peak is its largest stage's, not their sum.
    public func run() throws -> LinkRun {
        try options.validate()
        let clock = Clock()
        let pool = WorkerPool(threads: options.threads)
        let read = try readStage(clock, pool)
        let ingested = try ingestStage(consume read, clock, pool)
        let sources = ingested.sources
        let fingerprints = InputFingerprints(sources.buildings.source, sources.addresses.source)
        let extents = Self.extents(ingested.points, ingested.footprints, pool: pool)
        let frame = Self.frame(sources.territory, extents)
        let (metric, addressRows, records) = frameStage(consume ingested, frame: frame, clock, pool)
        let (indexed, accessory) = indexStage(consume metric, clock, pool)
        let decisions = try decisionSource()
        let matched = try matchStage(consume indexed, consume addressRows, buildingRows: records.buildingRows, accessory: accessory,
                                     deciding: decisions, clock, pool)
        let linked = splitStage(consume matched, buildingRows: records.buildingRows, frame: frame, clock, pool)
        var result = assembleStage(consume linked, consume records, accessory: accessory, sources: sources, frame: frame,
                                   fingerprints: fingerprints, clock, pool)
        result.report.warnings = RunWarnings.collect(result, buildings: sources.buildings.source, addresses: sources.addresses.source,
                                                     addressBox: extents.addresses, buildingBox: extents.buildings)
        result.report.run.secondsByStage = clock.seconds
        result.report.run.secondsTotal = Date().timeIntervalSince(clock.start)
        return result
    }

    package func optionSummary() -> [String: String] {
        [
            "strategy": options.link.strategy.rawValue,
            "max_distance_m": OutputNumber.fixed(options.link.maxDistance, 3),
            "accessory_max_area_m2": OutputNumber.fixed(options.link.accessoryMaxArea, 3),
            "accessory_radius_m": OutputNumber.fixed(options.link.accessoryRadius, 3),
            "link_model": options.link.strategy == .naive ? "none" : options.linkModelPath ?? "compiled-in",
            "units": options.units.rawValue,
            "only": options.only.rawValue,
            "format": options.format.rawValue,
            "parquet_reader": options.parquetReader.rawValue,
            "height_unit": (options.heightUnit ?? .m).rawValue,
            "campaign_id": options.resolvedCampaignID,
        ]
    }
}
