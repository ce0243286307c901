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

/// A distributed run's steps on one machine's share of the work: the plan (the frame and the
/// tiles), one pass of one tile, and the decisions of every tile read back for the outputs.
extension LinkPipeline {
    /// plan: the sources read and framed as a run reads them, the addresses cut into `tiles` tiles
    /// of nearly equal counts, each with the halos its passes read; with what the report says of
    /// the sources, their rejects (rejects.csv's rows), and the rows of each layer a tile cannot
    /// read in part, for the tiles' packs (`TilePack`).
    public func plan(tiles: TileCount) throws -> TilePlan.Made {
        let (pipeline, clock, pool) = try planReading()
        // (A pack of addresses holds every field the outputs pass writes.)
        let ingested = try pipeline.ingestStage(pipeline.readStage(clock, pool, allAddressFields: writesRecords), clock, pool)
        let sources = ingested.sources
        let extents = Self.extents(ingested.points, ingested.footprints, pool: pool)
        let frame = Self.frame(sources.territory, extents)
        let packed = Self.packed(sources)
        let packing = packed.isEmpty ? nil : TilePacking(ingested, packing: packed, frame: frame, pool: pool)
        let (metric, _, records) = pipeline.frameStage(consume ingested, frame: frame, clock, pool)
        let points = metric.points, footprints = metric.footprints
        let boxes = pool.map(footprints.count, chunkSize: 16_384) { _, i in footprints[i].bbox }
        let cut = TileCutter.cut(points, into: tiles.count(addresses: points.count))
        var extent = BBox.empty
        for p in points { extent.extend(p) }
        for b in boxes { extent.extend(b) }
        let planned = stage(.index, clock, "tiles", items: { $0.count }) { () -> ([TilePlan.Tile], String) in
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
        let inputs = pipeline.inputReports(sources, records.account, buildings: footprints.count, addresses: points.count)
        let outside = Self.outside(sources, records.account)
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
    func planReading() throws -> (LinkPipeline, Clock, WorkerPool) {
        try options.validate()
        guard options.tile == nil, options.decisionsDirectory == nil else { throw InputError("plan: give the sources, not a tile or decisions") }
        var quiet = options
        quiet.only = .links
        quiet.output = ""
        return (LinkPipeline(options: quiet, observer: observer), Clock(), WorkerPool(threads: options.threads))
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

    /// What a tile's pass gives: its own addresses' part of the run's measures, or their decisions.
    public enum TileOutput: Sendable {
        case measures(RunMeasures)
        case decisions(TileDecisions)
    }

    /// One pass of the tile `options.tile`: the sources read as a run reads them, cut to the
    /// tile and its halo, and the evidence of every address kept made; of its own addresses, the
    /// part of the run's measures, or (given the run's measures) the decisions.
    public func runTile() throws -> TileOutput {
        try options.validate()
        guard let task = options.tile else { throw InputError("tile: no tile given") }
        guard options.link.strategy == .flyr, options.previousLinks.isEmpty, options.evidencePath == nil, !writesRecords else {
            throw InputError("tile: a tile links with the link model, writes links only, and takes no previous links or evidence file")
        }
        let model = try linkModel().get()
        let clock = Clock()
        let pool = WorkerPool(threads: options.threads)
        let (indexed, accessory, addressRows, _, scope) = try tileScene(task, clock, pool)
        let running = start(.match, clock)
        let (evidence, _) = LinkModelDecisions.evidence(consume indexed, addressRows: addressRows, accessory: accessory, options: options.link,
                                                        measures: task.measures, counted: scope.own, pool: pool)
        switch task.pass {
        case .measures:
            let part = evidence.measuresPart
            return running.finish(.measures(part), "tile \(task.tile.index): measures of \(part.addresses) addresses", items: scope.own.count)
        case .outputs:
            throw InputError("tile \(task.tile.index): the outputs pass is writeTileParts")
        case .link:
            guard task.measures != nil else { throw InputError("tile \(task.tile.index): the link pass needs the run's measures") }
            let decided = LinkDecision.decide(consume evidence, model: model, options: options.link, previous: nil, pool: pool)
            return running.finish(.decisions(scope.decisions(decided, tile: task.tile.index)), "tile \(task.tile.index): decided",
                                  items: scope.own.count)
        }
    }

    /// The outputs pass of the tile `options.tile` (`TileParts`): the tile read as its link pass
    /// read it, every address kept given its decision from the tiles' files in
    /// `options.decisionsDirectory`, split and assembled as one run is, and the rows of its own
    /// addresses and buildings written into `directory`. `plan`: the plan's SHA-256.
    public func writeTileParts(plan: String, to directory: String) throws {
        try options.validate()
        guard let task = options.tile, task.pass == .outputs, let decisions = options.decisionsDirectory else {
            throw InputError("tile: the outputs pass needs a tile and the tiles' decisions")
        }
        guard PostgresTarget.conninfo(from: options.output) == nil else { throw InputError("tile: the outputs pass writes files") }
        let clock = Clock()
        let pool = WorkerPool(threads: options.threads)
        let (indexed, accessory, addressRows, records, scope) = try tileScene(task, clock, pool)
        let matched = try matchStage(consume indexed, consume addressRows, buildingRows: records.buildingRows, accessory: accessory,
                                     deciding: DistributedDecisions(directory: decisions, tile: task), clock, pool)
        let linked = splitStage(consume matched, buildingRows: records.buildingRows, frame: task.frame, clock, pool)
        let run = assembledRun(consume linked, consume records, rejects: [], frame: task.frame, pool: pool)
        try stage(.write, clock, "tile \(task.tile.index)") {
            try TileParts.write(run, scope: scope, accessory: accessory, tile: task.tile.index, plan: plan, to: directory)
            return ((), "tile \(task.tile.index): parts")
        }
    }

    /// What a tile's pass reads: the sources within its read box (or its packs), in the plan's
    /// frame, cut to the tile's scope and indexed.
    func tileScene(_ task: TileTask, _ clock: Clock, _ pool: WorkerPool) throws
        -> (indexed: IndexedScene, accessory: [Bool], addressRows: CompressedRows<AddressPoint>, records: FramedRecords, scope: TileScope) {
        let ingested = try ingestStage(readStage(clock, pool, within: task.readBox, packs: task.packs), clock, pool)
        let (framed, addressRows, framedRecords) = frameStage(consume ingested, frame: task.frame, clock, pool)
        let (metric, records, scope) = TileScope.cut(task, consume framed, consume framedRecords, addressRows: addressRows, pool: pool)
        let (indexed, accessory) = indexStage(consume metric, clock, pool)
        return (indexed, accessory, addressRows, records, scope)
    }
}

extension TileScope {
    /// The own addresses' outcomes, by id, in the run's (id) order.
    func decisions(_ decided: (links: [Link], unlinked: [UnlinkedReason?]), tile: Int) -> TileDecisions {
        var outcomes: [TileDecisions.Outcome] = []
        var links = decided.links.makeIterator(), next = links.next()
        for (a, reason) in decided.unlinked.enumerated() {
            // (The links are in address order, one for each address without a reason.)
            var outcome = TileDecisions.Outcome(address: addressIDs[a], building: nil, method: .proximity, confidence: 0, distance: 0,
                                                unlinked: reason)
            if reason == nil, let l = next {
                precondition(l.addressIndex == a, "one link for each address without an unlinked reason")
                outcome = .init(address: addressIDs[a], building: buildingIDs[l.buildingIndex], method: l.method, confidence: l.confidence,
                                distance: l.distance, unlinked: nil)
                next = links.next()
            }
            if own[a] { outcomes.append(outcome) }
        }
        return TileDecisions(tile: tile, outcomes: outcomes)
    }
}
