import Foundation

/// read → ingest → frame → index → match → split → assemble: a run in named stages, reporting
/// progress as events.
public struct LinkPipeline {
    public var options: RunOptions
    public var observer: PipelineObserver?

    public init(options: RunOptions, observer: PipelineObserver? = nil) {
        self.options = options
        self.observer = observer
    }

    /// A links-only run into a directory writes no geometry and no address fields: it keeps no lon/lat
    /// footprints, and of the address fields only those linking reads (`AddressField.linking`).
    var writesRecords: Bool {
        options.only != .links || PostgresTarget.conninfo(from: options.outputDirectory) != nil
    }

    /// The stages in order; each hands what the next reads over (moved, not copied) and drops
    /// what no later stage reads, so that a run's peak is its largest stage's, not their sum.
    public func run() throws -> LinkRun {
        try options.validate()
        let clock = Clock()
        let pool = WorkerPool(threads: options.threads)
        var inputs = try readAndIngest(clock, pool)                       // read, ingest
        let fingerprints = InputFingerprints(inputs.buildingSource, inputs.addressSource)
        // (Each layer's box apart: layers that do not overlap are warned of.)
        let boxes = Self.extents(inputs.addresses.points!, inputs.buildings.footprints!, pool: pool)
        let frame = Self.frame(inputs.territory, boxes)
        var layers = frameStage(&inputs, frame: frame, clock, pool)          // frame
        var indexed = indexStage(&layers, clock, pool)                       // index
        var matched = try matchStage(&indexed, &layers, clock, pool)         // match
        let units = splitStage(&matched, &layers, frame: frame, clock, pool) // split
        var result = assembleStage(&matched, &layers, &inputs, units: units, indexed.accessory, frame: frame,
                                   fingerprints: fingerprints, clock, pool)  // assemble
        result.report.warnings = RunWarnings.collect(result, buildings: inputs.buildingSource, addresses: inputs.addressSource,
                                                     addressBox: boxes.addresses, buildingBox: boxes.buildings)
        result.report.run.secondsByStage = clock.seconds
        result.report.run.secondsTotal = Date().timeIntervalSince(clock.start)
        return result
    }

    func optionSummary() -> [String: String] {
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

    func inputReport(_ t: SourceSummary, _ crs: String, _ assumed: Bool, accepted: Int, rejected: Int, repaired: Int?, generated: Int) -> RunReport.Input {
        let path = t.spec.location
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let isFile = (attrs?[.type] as? FileAttributeType) == .typeRegular
        return RunReport.Input(source: PostgresTarget.redacted(t.spec.description), reader: t.reader, layer: t.layerName,
                               crs: CRSInfo.authorityName(crs) ?? (crs.count > 80 ? String(crs.prefix(80)) + "…" : crs),
                               crsAssumed: assumed, attributeFilter: t.attributeFilter, fields: t.resolvedFields,
                               featuresRead: t.featuresRead, accepted: accepted, rejected: rejected, repaired: repaired,
                               generatedIds: generated, bytes: isFile ? (attrs?[.size] as? Int) : nil,
                               sha256: isFile ? SHA256.fingerprint(path) : nil, parquet: t.parquet)
    }
}
