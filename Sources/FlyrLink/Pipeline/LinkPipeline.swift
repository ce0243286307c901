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

    final class Clock: @unchecked Sendable {
        var seconds: [String: Double] = [:]
        let start = Date()
    }

    /// `items`: how many things the stage went through, for the progress rate. Every stage first hands
    /// back the pages the last one freed (HeapTrim), or its new arrays are mapped beside them.
    func stage<T>(_ s: PipelineStage, _ clock: Clock, _ detail: String = "", items: (T) -> Int? = { _ in nil },
                  _ body: () throws -> (T, String)) rethrows -> T {
        HeapTrim.returnFreedMemory()
        observer?(.started(s, detail: detail))
        let t0 = Date()
        let (value, done) = try body()
        let dt = Date().timeIntervalSince(t0)
        clock.seconds[s.rawValue, default: 0] += dt
        observer?(.finished(s, detail: done, seconds: dt, items: items(value)))
        return value
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

    /// What the report keeps of a source table once its records are ingested.
    struct SourceSummary: Sendable, Codable {
        var spec: SourceSpec
        var reader: String
        var layerName: String
        var resolvedFields: [String: String]
        var attributeFilter: String?
        var featuresRead: Int
        var parquet: ParquetReadReport?
        var fields: [SourceField]
        var readsInParts: Bool

        init(_ t: SourceTable) {
            spec = t.spec
            reader = t.reader
            layerName = t.layerName
            resolvedFields = t.resolvedFields
            attributeFilter = t.attributeFilter
            featuresRead = t.recordCount
            parquet = t.parquet
            fields = t.fields
            readsInParts = t.readsInParts
        }
    }

    /// The box of the addresses and that of the footprints, in stretches on the workers (a box of
    /// boxes is the same in any order).
    static func extents(_ addresses: [Point2], _ footprints: FootprintStore, pool: WorkerPool) -> (addresses: BBox, buildings: BBox) {
        let stretch = 65_536
        let parts = pool.map((max(addresses.count, footprints.count) + stretch - 1) / stretch, chunkSize: 1) { _, c in
            var a = BBox.empty, b = BBox.empty
            let part = c * stretch..<(c + 1) * stretch
            for i in part.clamped(to: addresses.indices) { a.extend(addresses[i]) }
            for i in part.clamped(to: footprints.indices) { b.extend(footprints[i].bbox) }
            return (a, b)
        }
        return parts.reduce(into: (BBox.empty, BBox.empty)) { $0.0.extend($1.0); $0.1.extend($1.1) }
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
