/// The two layers as read and ingested, and where they came from: what the frame stage starts from.
struct ReadLayers {
    var buildings: Ingest.Result<Building>
    var addresses: Ingest.Result<AddressPoint>
    var territory: Territory?
    var buildingSource: LinkPipeline.SourceSummary
    var addressSource: LinkPipeline.SourceSummary
}

extension LinkPipeline {
    /// read, then ingest: the layers' accepted rows parked, their footprints and points in lon/lat.
    /// `within`: a tile's lon/lat box, which GeoParquet's row groups and an indexed FlatGeobuf
    /// file's features are read within (see `SourceReader.read`); `packs`: a tile's packs of the
    /// layers its plan packed, read in place of the sources (`TilePack`: the run's ingested rows).
    /// `allAddressFields`: every field of the addresses kept, whatever the run writes (a plan's packs).
    /// `share`: that share of each layer's row groups (`SourceShare`, a plan's task).
    func readAndIngest(_ clock: Clock, _ pool: WorkerPool, within tileBox: BBox? = nil,
                       packs: [LayerRole: (path: String, sha256: String)] = [:], allAddressFields: Bool = false,
                       share: SourceShare? = nil) throws -> ReadLayers {
        // read: both layers at once (separate GDAL datasets), and the territory. Records go to
        // the ingest intakes in batches as they are read, so no layer is ever held as records.
        let buildingIntake = Ingest.BuildingIntake(heightScale: (options.heightUnit ?? .m).metres)
        let addressIntake = Ingest.AddressIntake(keeping: writesRecords || allAddressFields ? nil : AddressField.linking)
        let counter = observer.map { ReadProgress(observer: $0) }
        let tile = options.tile?.tile.index ?? 0
        let (tables, territory) = try stage(.read, clock, "buildings and addresses",
                                            items: { ($0.0.0?.recordCount ?? 0) + ($0.0.1?.recordCount ?? 0) }) {
            let territory = try options.territory.map { spec throws(InputError) in try Territory.read(spec) }
            var box = territory?.footprint.bbox
            if let tileBox { box = box.map { $0.intersection(tileBox) } ?? tileBox }
            let tables = try readBoth(within: box, indexedFlatGeobuf: tileBox != nil, share: share, skipping: Set(packs.keys),
                                      buildingIntake, addressIntake, progress: counter)
            return ((tables, territory), "\(tables.0?.recordCount ?? 0) buildings, \(tables.1?.recordCount ?? 0) addresses")
        }
        // ingest: bring the accepted rows to lon/lat, name and order them (or take a pack's, so made).
        let (b, a) = try stage(.ingest, clock, items: { $0.0.result.rows.count + $0.1.result.rows.count }) {
            // One layer after the other, each on all the workers. The addresses' ids sorted first:
            // their keys are gone before the footprints are reordered.
            func unpacked<Row: ParkableRow>(_ layer: LayerRole, _ spec: SourceSpec) throws(InputError) -> (result: Ingest.Result<Row>, source: SourceSummary) {
                let pack = try TilePack.read(packs[layer]!.path, sha256: packs[layer]!.sha256, tile: tile, layer: layer, as: Row.self, pool: pool)
                return (Ingest.Result(pack), SourceSummary(pack.header, spec: spec))
            }
            let a: (result: Ingest.Result<AddressPoint>, source: SourceSummary)
            if let table = tables.1 {
                try addressIntake.sortIDs(table, pool: pool)
                a = (addressIntake.finish(pool: pool), SourceSummary(table))
            } else {
                a = try unpacked(.addresses, options.addresses)
            }
            let b: (result: Ingest.Result<Building>, source: SourceSummary) =
                try tables.0.map { (try buildingIntake.finish($0, pool: pool), SourceSummary($0)) } ?? unpacked(.buildings, options.buildings)
            return ((b, a), "\(b.result.rows.count) buildings, \(a.result.rows.count) addresses accepted")
        }
        return ReadLayers(buildings: b.result, addresses: a.result, territory: territory, buildingSource: b.source, addressSource: a.source)
    }

    /// Both layers at once, on two threads (separate GDAL datasets); GeoParquet pruned to
    /// `lonLatBox`; none of the layers `skipping` (nil).
    private func readBoth(within lonLatBox: BBox?, indexedFlatGeobuf: Bool, share: SourceShare?, skipping: Set<LayerRole>, _ buildings: Ingest.BuildingIntake,
                          _ addresses: Ingest.AddressIntake, progress: ReadProgress?) throws -> (SourceTable?, SourceTable?) {
        let fields = options.fields, parquet = options.parquetReader, remote = options.remote
        return try Concurrently.both({ () throws(InputError) -> SourceTable? in
            if skipping.contains(.buildings) { return nil }
            return try SourceReader.read(options.buildings, role: .buildings, mapping: fields, parquet: parquet, lonLatBox: lonLatBox,
                                         indexedFlatGeobuf: indexedFlatGeobuf, share: share, remote: remote,
                                         sink: RecordSink(expect: buildings.expect) { progress?.add(buildings: $0.count); buildings.consume(&$0) })
        }, { () throws(InputError) -> SourceTable? in
            if skipping.contains(.addresses) { return nil }
            return try SourceReader.read(options.addresses, role: .addresses, mapping: fields, parquet: parquet, lonLatBox: lonLatBox,
                                         indexedFlatGeobuf: indexedFlatGeobuf, share: share, remote: remote,
                                         sink: RecordSink(expect: addresses.expect) { progress?.add(addresses: $0.count); addresses.consume(&$0) })
        })
    }
}

extension Ingest.Result {
    /// A tile's pack of the layer: the rows one run ingested.
    init(_ pack: TilePack.Layer<T>) {
        self.init(rows: pack.rows, rejects: [], crs: pack.header.crs, crsAssumed: pack.header.crsAssumed,
                  generatedIDs: pack.header.generatedIDs, footprints: pack.footprints, points: pack.points)
    }
}
