import FlyrLink
import Foundation

/// How many tiles a plan cuts: so many, or one per so many addresses.
public enum TileCount: Sendable {
    case exact(Int)
    case perAddresses(Int)

    func count(addresses: Int) -> Int {
        switch self {
        case .exact(let n): max(1, n)
        case .perAddresses(let per): max(1, (addresses + per - 1) / max(1, per))
        }
    }
}

/// A distributed run's plan: the frame and the tiles, made from a read of the sources or from the
/// files of their shares' passes (`PlanShares`), with the run's stages as one run reads them.
public struct Planner {
    public let pipeline: LinkPipeline
    var options: RunOptions { pipeline.options }

    public init(_ pipeline: LinkPipeline) {
        self.pipeline = pipeline
    }

    /// plan: the sources read and framed as a run reads them, the addresses cut into `tiles` tiles
    /// of nearly equal counts, each with the halos its passes read; with what the report says of
    /// the sources, their rejects (rejects.csv's rows), and the rows of each layer a tile cannot
    /// read in part, for the tiles' packs (`TilePack`).
    public func plan(tiles: TileCount) throws -> TilePlan.Made {
        let (reading, clock, pool) = try planReading()
        // (A pack of addresses holds every field the outputs pass writes.)
        let ingested = try reading.ingestStage(reading.readStage(clock, pool, allAddressFields: pipeline.writesRecords), clock, pool)
        let sources = ingested.sources
        let extents = LinkPipeline.extents(ingested.points, ingested.footprints, pool: pool)
        let frame = LinkPipeline.frame(sources.territory, extents)
        let packed = Self.packed(sources)
        let packing = packed.isEmpty ? nil : TilePacking(ingested, packing: packed, frame: frame, pool: pool)
        let (metric, _, records) = reading.frameStage(consume ingested, frame: frame, clock, pool)
        let points = metric.points, footprints = metric.footprints
        let boxes = pool.map(footprints.count, chunkSize: 16_384) { _, i in footprints[i].bbox }
        let cut = TileCutter.cut(points, into: tiles.count(addresses: points.count))
        var extent = BBox.empty
        for p in points { extent.extend(p) }
        for b in boxes { extent.extend(b) }
        let planned = pipeline.stage(.index, clock, "tiles", items: { $0.count }) { () -> ([TilePlan.Tile], String) in
            let grid = TileHalo.grid(of: boxes, pool: pool)
            let tiles = pool.map(cut.count, chunkSize: 1) { _, t in
                let (bounds, addresses) = cut[t]
                return TilePlan.Tile(index: t, bounds: bounds, addresses: addresses, options: options.link, extent: extent, frame: frame,
                                     linkHalo: TileHalo.link(around: bounds, footprintBoxes: boxes, grid: grid, options: options.link))
            }
            return (tiles, "\(tiles.count) tiles")
        }
        let fingerprints = TilePlan.fingerprints(options.resolvingPaths)
        // What a run's report says of the sources (its inputs found their digests remembered).
        let inputs = reading.inputReports(sources, records.account, buildings: footprints.count, addresses: points.count)
        let outside = LinkPipeline.outside(sources, records.account)
        var counts = RunReport.Counts()
        counts.rejected = sources.addresses.rejects.count
        counts.outsideTerritory = outside.addresses
        counts.buildingsRejected = records.account.buildingRejects.count
        counts.buildingsOutsideTerritory = outside.buildings
        counts.buildingsRepaired = records.account.repaired
        let rejects = sources.addresses.rejects + records.account.buildingRejects
        try EmptyLayerCheck.check(options, buildings: footprints.count, addresses: points.count, counts: counts, rejects: rejects)
        let report = TilePlan.SourceReport(
            inputs: inputs, territory: sources.territory?.source, counts: counts, rejects: rejects.count,
            warningsBeforeLinks: RunWarnings.sources(rejects: rejects, buildings: sources.buildings.source, addresses: sources.addresses.source,
                                                     addressBox: extents.addresses, buildingBox: extents.buildings),
            warningsAfterLinks: RunWarnings.heights(records.buildingRows.decompressed(pool: pool), unit: options.heightUnit))
        let plan = TilePlan(options: options.resolvingPaths, frame: frame, inputs: fingerprints, addresses: points.count,
                            buildings: footprints.count, packed: [LayerRole.buildings, .addresses].filter(packed.contains),
                            campaignID: options.resolvedCampaignID,
                            sources: report, tiles: planned)
        return TilePlan.Made(plan: plan, rejects: rejects, packing: packing)
    }

    /// A plan's read of the sources (whole, or a share's): the run's links only, nothing written.
    func planReading() throws -> (LinkPipeline, LinkPipeline.Clock, WorkerPool) {
        try options.validate()
        var quiet = options
        quiet.only = .links
        quiet.output = ""
        return (LinkPipeline(options: quiet, observer: pipeline.observer), LinkPipeline.Clock(), WorkerPool(threads: options.threads))
    }

    /// Whether a layer's rejects say an id was repeated (one run keeps the first row of an id).
    static func repeats(_ rejects: [Reject]) -> Bool { rejects.contains { $0.reason.hasPrefix("duplicate id") } }

    /// The layers a tile cannot read in part, which the plan packs: a source read whole (neither
    /// GeoParquet nor FlatGeobuf with a spatial index), or a layer that repeats an id.
    static func packed(_ sources: InputSources) -> Set<LayerRole> {
        var packed = Set<LayerRole>()
        if !sources.buildings.source.readsInParts || repeats(sources.buildings.rejects) { packed.insert(.buildings) }
        if !sources.addresses.source.readsInParts || repeats(sources.addresses.rejects) { packed.insert(.addresses) }
        return packed
    }
}
