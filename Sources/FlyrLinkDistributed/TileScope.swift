import FlyrLink
/// One pass of one tile of a distributed run, as a run's options carry it (`flyr-link tile`).
public struct TileTask: Sendable, Codable {
    public enum Pass: String, Sendable, Codable {
        /// The tile's own addresses' part of the run's measures.
        case measures
        /// The tile's own addresses' decisions, given the run's measures.
        case link
        /// The tile's part of the outputs (`TileParts`), given every tile's decisions: the rows of
        /// its own addresses and of the buildings it owns.
        case outputs
    }

    public var pass: Pass
    public var tile: TilePlan.Tile
    /// The plan's frame (the whole run's: a tile that reads a part cannot centre its own).
    public var frame: LocalMetricFrame
    /// The run's measures (the link pass).
    public var measures: RunMeasures?
    /// The plan's packs directory (`TilePlan.packsPath`), where the tile's packs of the layers
    /// the plan packed are (`TilePlan.Tile.packs`).
    public var packDirectory: String

    public init(pass: Pass, tile: TilePlan.Tile, frame: LocalMetricFrame, measures: RunMeasures?, packDirectory: String) {
        self.pass = pass
        self.tile = tile
        self.frame = frame
        self.measures = measures
        self.packDirectory = packDirectory
    }

    /// The tile's packs: each packed layer's file and SHA-256.
    var packs: [LayerRole: (path: String, sha256: String)] {
        var packs: [LayerRole: (path: String, sha256: String)] = [:]
        for (name, sha) in tile.packs {
            guard let layer = LayerRole(rawValue: name) else { continue }
            packs[layer] = (packDirectory + "/" + TilePack.fileName(tile: tile.index, layer: layer), sha)
        }
        return packs
    }

    /// (The outputs pass reads what the link pass read: a building's rows read its links, whose
    /// addresses lie within the link halo of the tile that owns it.)
    var halo: TilePlan.Halo { pass == .measures ? tile.measureHalo : tile.linkHalo }
    var readBox: BBox { pass == .measures ? tile.measureReadBox : tile.linkReadBox }
}

/// What a tile run keeps of what it read: the buildings and addresses within its halo, each by its
/// id (a tile that reads part of a source cannot know a row's index in the whole run; both layers
/// are in id order, so the kept keep the run's relative order and every tie falls as in one run),
/// and which of the addresses are the tile's own.
struct TileScope {
    var buildingIDs: [String]
    var addressIDs: [String]
    var own: [Bool]
    /// The buildings whose rows the tile writes (the outputs pass): those whose box's centre (in
    /// the frame) lies in the tile, so that each building is written by exactly one tile.
    var ownBuildings: [Bool]

    /// The scope of `task` over the layers framed: the metric layers, the records and the compressed
    /// rows cut to it (the records' lon/lat geometry too, when the pass writes it).
    static func cut(_ task: TileTask, _ metric: consuming MetricLayers, _ records: consuming FramedRecords,
                    addressRows: CompressedRows<AddressPoint>, pool: WorkerPool) -> (MetricLayers, FramedRecords, TileScope) {
        let bounds = task.tile.bounds, halo = task.halo
        let keepBuilding = pool.map(metric.footprints.count, chunkSize: 16_384) { [footprints = metric.footprints] _, i in
            bounds.meets(footprints[i].bbox, within: halo.buildings)
        }
        let keepAddress = metric.points.map { bounds.near($0, within: halo.addresses) }
        records.buildingRows.keep(keepBuilding)
        addressRows.keep(keepAddress)
        let kept = keepBuilding.indices.compactMap { keepBuilding[$0] ? Int32($0) : nil }
        metric.footprints = FootprintStore(metric.footprints, order: kept, pool: pool)
        if records.footprints.count > 0 { records.footprints = FootprintStore(records.footprints, order: kept, pool: pool) }
        metric.points = zip(metric.points, keepAddress).filter(\.1).map(\.0)
        if !records.points.isEmpty { records.points = zip(records.points, keepAddress).filter(\.1).map(\.0) }
        let cut = metric.footprints, points = metric.points
        let scope = TileScope(buildingIDs: records.buildingRows.map(pool: pool) { $1.id }, addressIDs: addressRows.map(pool: pool) { $1.id },
                              own: points.map(bounds.contains),
                              ownBuildings: pool.map(cut.count, chunkSize: 16_384) { _, i in bounds.contains(cut[i].bbox.center) })
        return (metric, records, scope)
    }
}
