/// The two layers as ingested, in lon/lat: each one's rows compressed in id order with its geometry
/// beside them, and what the report says of the sources.
package struct IngestedLayers {
    package var buildingRows: CompressedRows<Building>
    /// The buildings' footprints, in the rows' order.
    package var footprints: FootprintStore
    package var addressRows: CompressedRows<AddressPoint>
    /// The addresses' points, in the rows' order.
    package var points: [Point2]
    package var sources: InputSources
}

extension LinkPipeline {
    /// ingest: the accepted rows brought to lon/lat, named and put in id order (or handed over so
    /// made). The addresses' first, so their keys are gone before the footprints are reordered.
    package func ingestStage(_ read: consuming ReadLayers, _ clock: Clock, _ pool: WorkerPool) throws -> IngestedLayers {
        let running = start(.ingest, clock)
        let a: (result: Ingest.Result<AddressPoint, [Point2]>, source: SourceSummary)
        if let table = read.addressTable {
            try read.addressIntake.sortIDs(table, pool: pool)
            a = (read.addressIntake.finish(pool: pool), SourceSummary(table))
        } else {
            a = try read.packed!.addresses(options.addresses, pool: pool)
        }
        let b: (result: Ingest.Result<Building, FootprintStore>, source: SourceSummary)
        if let table = read.buildingTable {
            b = (try read.buildingIntake.finish(table, pool: pool), SourceSummary(table))
        } else {
            b = try read.packed!.buildings(options.buildings, pool: pool)
        }
        let sources = InputSources(buildings: .init(b.result, source: b.source), addresses: .init(a.result, source: a.source),
                                   territory: read.territory)
        let ingested = IngestedLayers(buildingRows: b.result.rows, footprints: b.result.geometry, addressRows: a.result.rows,
                                      points: a.result.geometry, sources: sources)
        return running.finish(ingested, "\(b.result.rows.count) buildings, \(a.result.rows.count) addresses accepted",
                              items: b.result.rows.count + a.result.rows.count)
    }
}

/// Layers handed to a run already ingested (a distributed run's tile packs): the read stage skips
/// them, and the ingest stage takes their rows as one run ingested them.
package protocol PackedLayers {
    var layers: Set<LayerRole> { get }
    func buildings(_ spec: SourceSpec, pool: WorkerPool) throws(InputError)
        -> (result: Ingest.Result<Building, FootprintStore>, source: LinkPipeline.SourceSummary)
    func addresses(_ spec: SourceSpec, pool: WorkerPool) throws(InputError)
        -> (result: Ingest.Result<AddressPoint, [Point2]>, source: LinkPipeline.SourceSummary)
}
