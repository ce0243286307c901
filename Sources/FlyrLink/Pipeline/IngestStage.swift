/// The two layers as ingested, in lon/lat: each one's rows compressed in id order with its geometry
/// beside them, and what the report says of the sources.
struct IngestedLayers {
    var buildingRows: CompressedRows<Building>
    /// The buildings' footprints, in the rows' order.
    var footprints: FootprintStore
    var addressRows: CompressedRows<AddressPoint>
    /// The addresses' points, in the rows' order.
    var points: [Point2]
    var sources: InputSources
}

extension LinkPipeline {
    /// ingest: the accepted rows brought to lon/lat, named and put in id order (or a tile's pack's,
    /// so made). The addresses' first, so their keys are gone before the footprints are reordered.
    func ingestStage(_ read: consuming ReadLayers, _ clock: Clock, _ pool: WorkerPool) throws -> IngestedLayers {
        let running = start(.ingest, clock)
        let tile = options.tile?.tile.index ?? 0, packs = read.packs
        func unpacked<Row: CompressibleRow, Geometry>(_ layer: LayerRole, _ spec: SourceSpec, _ geometry: (TilePack.Layer<Row>) -> Geometry)
            throws(InputError) -> (result: Ingest.Result<Row, Geometry>, source: SourceSummary) {
            let pack = try TilePack.read(packs[layer]!.path, sha256: packs[layer]!.sha256, tile: tile, layer: layer, as: Row.self, pool: pool)
            return (Ingest.Result(pack, geometry: geometry(pack)), SourceSummary(pack.header, spec: spec))
        }
        let a: (result: Ingest.Result<AddressPoint, [Point2]>, source: SourceSummary)
        if let table = read.addressTable {
            try read.addressIntake.sortIDs(table, pool: pool)
            a = (read.addressIntake.finish(pool: pool), SourceSummary(table))
        } else {
            a = try unpacked(.addresses, options.addresses) { $0.points! }
        }
        let b: (result: Ingest.Result<Building, FootprintStore>, source: SourceSummary)
        if let table = read.buildingTable {
            b = (try read.buildingIntake.finish(table, pool: pool), SourceSummary(table))
        } else {
            b = try unpacked(.buildings, options.buildings) { $0.footprints! }
        }
        let sources = InputSources(buildings: .init(b.result, source: b.source), addresses: .init(a.result, source: a.source),
                                   territory: read.territory)
        let ingested = IngestedLayers(buildingRows: b.result.rows, footprints: b.result.geometry, addressRows: a.result.rows,
                                      points: a.result.geometry, sources: sources)
        return running.finish(ingested, "\(b.result.rows.count) buildings, \(a.result.rows.count) addresses accepted",
                              items: b.result.rows.count + a.result.rows.count)
    }
}

extension Ingest.Result {
    /// A tile's pack of the layer: the rows one run ingested, with `geometry`, the pack's.
    init(_ pack: TilePack.Layer<T>, geometry: Geometry) {
        self.init(rows: pack.rows, rejects: [], crs: pack.header.crs, crsAssumed: pack.header.crsAssumed,
                  generatedIDs: pack.header.generatedIDs, geometry: geometry)
    }
}
