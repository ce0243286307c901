/// The addresses as the assemble reads them: their links (a split row's as unit links), each
/// unlinked address's reason, the address rows, and the unit slices.
package struct LinkedAddresses {
    var links: [Link]
    var unlinked: [UnlinkedReason?]
    var addresses: [AddressPoint]
    var units: [UnitSlice]
}

extension LinkPipeline {
    /// split: townhouse rows into unit slices, on the scene of the possible rows; the scene is freed
    /// off this thread first, and only the planned rows' compressed building rows are unpacked.
    package func splitStage(_ matched: consuming MatchedAddresses, buildingRows: CompressedRows<Building>, frame: LocalMetricFrame,
                    _ clock: Clock, _ pool: WorkerPool) -> LinkedAddresses {
        let running = start(.split, clock)
        let rowScene = matched.rowScene
        var linked = LinkedAddresses(links: matched.links, unlinked: matched.unlinked, addresses: matched.addresses, units: [])
        _ = consume matched  // (the row scene is `rowScene`'s alone, the links `linked`'s)
        var plans: [TownhouseSplitter.Plan?] = []
        if options.units == .split {
            let candidates = TownhouseSplitter.Candidates(links: linked.links, scene: rowScene, buildingCount: buildingRows.count, pool: pool)
            // The possible rows' levels and types (a block of flats is not cut), from their compressed rows.
            let rows = buildingRows.rows(at: rowScene.buildings.map(Int.init), pool: pool)
            plans = TownhouseSplitter.plans(scene: rowScene, candidates: candidates, addresses: linked.addresses, levels: rows.map(\.levels),
                                            types: rows.map(\.type), frame: frame, pool: pool, slicesInLonLat: writesRecords)
        }
        BackgroundRelease.dropAndTrim(consume rowScene)
        guard options.units == .split else { return running.finish(linked, "off") }
        let planned = plans.compactMap { $0?.building }
        let buildingIDs = Dictionary(uniqueKeysWithValues: zip(planned, buildingRows.rows(at: planned, pool: pool).map(\.id)))
        linked.units = TownhouseSplitter.units(plans, links: &linked.links, addresses: linked.addresses, buildingIDs: buildingIDs, pool: pool)
        return running.finish(linked, "\(linked.units.count) unit slices")
    }
}
