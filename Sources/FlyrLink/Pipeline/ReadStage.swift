/// What the read stage hands the ingest: each layer's records, taken by its intake batch by batch as
/// they were read, and its table; no table for a layer handed over already ingested (`PackedLayers`).
package struct ReadLayers {
    let buildingIntake: Ingest.BuildingIntake
    let addressIntake: Ingest.AddressIntake
    var buildingTable: SourceTable?
    var addressTable: SourceTable?
    var territory: Territory?
    var packed: (any PackedLayers)?
}

extension LinkPipeline {
    /// read: both layers at once (separate GDAL datasets) and the territory. A tile reads `within` its box, not the
    /// layers it has `packed`; a plan's task reads its `share`, and a plan keeps `allAddressFields` for its packs.
    package func readStage(_ clock: Clock, _ pool: WorkerPool, within tileBox: BBox? = nil, packed: (any PackedLayers)? = nil,
                           allAddressFields: Bool = false, share: SourceShare? = nil) throws -> ReadLayers {
        let buildingIntake = Ingest.BuildingIntake(heightScale: (options.heightUnit ?? .m).metres)
        let addressIntake = Ingest.AddressIntake(keeping: writesRecords || allAddressFields ? nil : AddressField.linking)
        let counter = observer.map { ReadProgress(observer: $0) }
        let running = start(.read, clock, "buildings and addresses")
        let territory = try options.territory.map { spec throws(InputError) in try Territory.read(spec) }
        var box = territory?.footprint.bbox
        if let tileBox { box = box.map { $0.intersection(tileBox) } ?? tileBox }
        let (buildings, addresses) = try readBoth(within: box, indexedFlatGeobuf: tileBox != nil, share: share, skipping: packed?.layers ?? [],
                                                  buildingIntake, addressIntake, progress: counter)
        let read = ReadLayers(buildingIntake: buildingIntake, addressIntake: addressIntake, buildingTable: buildings, addressTable: addresses,
                              territory: territory, packed: packed)
        return running.finish(read, "\(buildings?.recordCount ?? 0) buildings, \(addresses?.recordCount ?? 0) addresses",
                              items: (buildings?.recordCount ?? 0) + (addresses?.recordCount ?? 0))
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
