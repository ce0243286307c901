extension LinkPipeline {
    /// assemble: the links grouped by building, the building rows unparked, and the report's
    /// inputs and counts.
    func assembleStage(_ matched: inout MatchedAddresses, _ layers: inout FramedLayers, _ inputs: inout ReadLayers, units: [UnitSlice],
                       _ accessory: [Bool], frame: LocalMetricFrame, fingerprints: InputFingerprints,
                       _ clock: Clock, _ pool: WorkerPool) -> LinkRun {
        stage(.assemble, clock, items: { $0.links.count }) {
            let buildingCount = layers.buildingRows!.count
            let addressRejects = inputs.addresses.rejects
            var result = assembled(&matched, &layers, rejects: addressRejects + layers.buildingRejects, units: units, frame: frame, pool: pool)
            fingerprints.wait()  // the reports below find the digests remembered
            let outside = reportSources(&result.report, inputs, layers, buildings: buildingCount, addresses: result.addresses.count)
            RunSummary.count(&result, accessory: accessory, repaired: layers.repaired, outsideAddresses: outside.addresses,
                             outsideBuildings: outside.buildings, buildingRejects: layers.buildingRejects.count,
                             addressRejects: addressRejects.count)
            return (result, "\(result.links.count) links")
        }
    }

    /// The report's inputs and territory; what lies outside the territory (counted, not kept).
    /// `buildings`, `addresses`: how many were accepted.
    func reportSources(_ report: inout RunReport, _ inputs: ReadLayers, _ layers: FramedLayers, buildings: Int, addresses: Int)
        -> (addresses: Int, buildings: Int) {
        let b = inputs.buildings, a = inputs.addresses
        report.inputs["buildings"] = inputReport(inputs.buildingSource, b.crs, b.crsAssumed, accepted: buildings,
                                                 rejected: layers.buildingRejects.count, repaired: layers.repaired, generated: b.generatedIDs)
        report.inputs["addresses"] = inputReport(inputs.addressSource, a.crs, a.crsAssumed, accepted: addresses,
                                                 rejected: a.rejects.count, repaired: nil, generated: a.generatedIDs)
        report.territory = inputs.territory?.source
        return Self.outside(inputs, layers)
    }

    /// What lies outside the territory: dropped by the frame stage, or in row groups its box
    /// skipped (GeoParquet).
    static func outside(_ inputs: ReadLayers, _ layers: FramedLayers) -> (addresses: Int, buildings: Int) {
        (layers.outsideAddresses + (inputs.addressSource.parquet?.rowsSkippedByBBox ?? 0),
         layers.outsideBuildings + (inputs.buildingSource.parquet?.rowsSkippedByBBox ?? 0))
    }

    /// The run the outputs are written from: the links grouped by building (`LinkAssembly`), the
    /// building rows unparked; its report holds the options, not yet the counts. (A tile's
    /// outputs pass writes its part of the outputs from the same.)
    func assembled(_ matched: inout MatchedAddresses, _ layers: inout FramedLayers, rejects: [Reject], units: [UnitSlice],
                   frame: LocalMetricFrame, pool: WorkerPool) -> LinkRun {
        let campaign = options.resolvedCampaignID
        let buildingCount = layers.buildingRows!.count
        var result = LinkRun(options: options, campaignID: campaign, frame: frame, addresses: matched.addresses,
                             addressLocations: layers.addressLocations, buildings: [], buildingFootprints: layers.buildingFootprints,
                             links: [], linkOfAddress: LinkOfAddress(), unlinkedReason: UnlinkedReasons(), buildingLinkStart: [], units: units,
                             rejects: rejects,
                             report: RunReport(campaignID: campaign, metricFrame: frame.projString, options: optionSummary(),
                                               run: .init(threads: pool.threadCount, secondsByStage: [:], secondsTotal: 0)))
        matched.addresses = []
        layers.addressLocations = []
        layers.buildingFootprints = FootprintStore([])
        LinkAssembly.assemble(&result, links: &matched.links, unlinked: matched.unlinked, buildingCount: buildingCount, pool: pool)
        result.buildings = layers.buildingRows.take()!.restore(pool: pool)
        matched.unlinked = []
        return result
    }
}
