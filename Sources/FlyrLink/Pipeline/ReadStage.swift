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
    /// file's features are read within (see `SourceReader.read`).
    func readAndIngest(_ clock: Clock, _ pool: WorkerPool, within tileBox: BBox? = nil) throws -> ReadLayers {
        // read: both layers at once (separate GDAL datasets), and the territory. Records go to
        // the ingest intakes in batches as they are read, so no layer is ever held as records.
        let buildingIntake = Ingest.BuildingIntake(heightScale: (options.heightUnit ?? .m).metres)
        let addressIntake = Ingest.AddressIntake(keeping: writesRecords ? nil : AddressField.linking)
        let counter = observer.map { ReadProgress(observer: $0) }
        let (buildingTable, addressTable, territory) = try stage(.read, clock, "buildings and addresses",
                                                                 items: { $0.0.recordCount + $0.1.recordCount }) {
            let territory = try options.territory.map { spec throws(InputError) in try Territory.read(spec) }
            var box = territory?.footprint.bbox
            if let tileBox { box = box.map { $0.intersection(tileBox) } ?? tileBox }
            let tables = try readBoth(within: box, indexedFlatGeobuf: tileBox != nil, buildingIntake, addressIntake, progress: counter)
            return ((tables.0, tables.1, territory), "\(tables.0.recordCount) buildings, \(tables.1.recordCount) addresses")
        }
        // ingest: bring the accepted rows to lon/lat, name and order them.
        let (b, a) = try stage(.ingest, clock, items: { $0.0.rows.count + $0.1.rows.count }) {
            // One layer after the other, each on all the workers. The addresses' ids sorted first:
            // their keys are gone before the footprints are reordered.
            try addressIntake.sortIDs(addressTable, pool: pool)
            let b = try buildingIntake.finish(buildingTable, pool: pool)
            let a = addressIntake.finish(pool: pool)
            return ((b, a), "\(b.rows.count) buildings, \(a.rows.count) addresses accepted")
        }
        return ReadLayers(buildings: b, addresses: a, territory: territory, buildingSource: SourceSummary(buildingTable),
                          addressSource: SourceSummary(addressTable))
    }

    /// Both layers at once, on two threads (separate GDAL datasets); GeoParquet pruned to `lonLatBox`.
    private func readBoth(within lonLatBox: BBox?, indexedFlatGeobuf: Bool, _ buildings: Ingest.BuildingIntake,
                          _ addresses: Ingest.AddressIntake, progress: ReadProgress?) throws -> (SourceTable, SourceTable) {
        let fields = options.fields, parquet = options.parquetReader
        return try Concurrently.both({ () throws(InputError) in
            try SourceReader.read(options.buildings, role: .buildings, mapping: fields, parquet: parquet, lonLatBox: lonLatBox,
                                  indexedFlatGeobuf: indexedFlatGeobuf,
                                  sink: RecordSink(expect: buildings.expect) { progress?.add(buildings: $0.count); buildings.consume(&$0) })
        }, { () throws(InputError) in
            try SourceReader.read(options.addresses, role: .addresses, mapping: fields, parquet: parquet, lonLatBox: lonLatBox,
                                  indexedFlatGeobuf: indexedFlatGeobuf,
                                  sink: RecordSink(expect: addresses.expect) { progress?.add(addresses: $0.count); addresses.consume(&$0) })
        })
    }
}
