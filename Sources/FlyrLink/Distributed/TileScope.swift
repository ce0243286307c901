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

    /// The scope of `task` over the footprints and points read (in the frame), both cut to it in
    /// place, and the parked rows with them; the lon/lat footprints and points too, when the pass
    /// writes records (`lonLat`, `addressLonLat` otherwise empty).
    static func cut(_ task: TileTask, footprints: inout FootprintStore, points: inout [Point2], lonLat: inout FootprintStore,
                    addressLonLat: inout [Point2], buildingRows: ParkedRows<Building>, addressRows: ParkedRows<AddressPoint>,
                    pool: WorkerPool) -> TileScope {
        let bounds = task.tile.bounds, halo = task.halo
        let keepBuilding = pool.map(footprints.count, chunkSize: 16_384) { _, i in bounds.meets(footprints[i].bbox, within: halo.buildings) }
        let keepAddress = points.map { bounds.near($0, within: halo.addresses) }
        buildingRows.keep(keepBuilding)
        addressRows.keep(keepAddress)
        let kept = keepBuilding.indices.compactMap { keepBuilding[$0] ? Int32($0) : nil }
        footprints = FootprintStore(footprints, order: kept, pool: pool)
        if lonLat.count > 0 { lonLat = FootprintStore(lonLat, order: kept, pool: pool) }
        points = zip(points, keepAddress).filter(\.1).map(\.0)
        if !addressLonLat.isEmpty { addressLonLat = zip(addressLonLat, keepAddress).filter(\.1).map(\.0) }
        let metric = footprints
        return TileScope(buildingIDs: buildingRows.map(pool: pool) { $1.id }, addressIDs: addressRows.map(pool: pool) { $1.id },
                         own: points.map(bounds.contains),
                         ownBuildings: pool.map(metric.count, chunkSize: 16_384) { _, i in bounds.contains(metric[i].bbox.center) })
    }
}
