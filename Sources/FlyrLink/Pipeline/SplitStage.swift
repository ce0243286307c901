extension LinkPipeline {
    /// split: townhouse rows into unit slices, on the scene of the possible rows; the scene is freed
    /// off this thread first, and only the planned rows' parked building rows are unpacked.
    func splitStage(_ matched: inout MatchedAddresses, _ layers: inout FramedLayers, frame: LocalMetricFrame,
                    _ clock: Clock, _ pool: WorkerPool) -> [UnitSlice] {
        stage(.split, clock) {
            var plans: [TownhouseSplitter.Plan?] = []
            let rowScene = matched.rowScene.take()!
            if options.units == .split {
                let candidates = TownhouseSplitter.Candidates(links: matched.links, scene: rowScene, buildingCount: layers.buildingRows!.count,
                                                              pool: pool)
                // The possible rows' levels and types (a block of flats is not cut), from their parked rows.
                let rows = layers.buildingRows!.rows(at: rowScene.buildings.map(Int.init), pool: pool)
                plans = TownhouseSplitter.plans(scene: rowScene, candidates: candidates, addresses: matched.addresses, levels: rows.map(\.levels),
                                                types: rows.map(\.type), frame: frame, pool: pool, slicesInLonLat: writesRecords)
            }
            BackgroundRelease.dropAndTrim(consume rowScene)
            guard options.units == .split else { return ([], "off") }
            let planned = plans.compactMap { $0?.building }
            let buildingIDs = Dictionary(uniqueKeysWithValues: zip(planned, layers.buildingRows!.rows(at: planned, pool: pool).map(\.id)))
            let slices = TownhouseSplitter.units(plans, links: &matched.links, addresses: matched.addresses, buildingIDs: buildingIDs, pool: pool)
            return (slices, "\(slices.count) unit slices")
        }
    }
}
