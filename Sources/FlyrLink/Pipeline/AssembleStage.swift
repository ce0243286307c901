extension LinkPipeline {
    /// assemble: the links grouped by building, the building rows unparked, and the report's
    /// inputs and counts.
    func assembleStage(_ matched: inout MatchedAddresses, _ layers: inout FramedLayers, _ inputs: inout ReadLayers, units: [UnitSlice],
                       _ accessory: [Bool], frame: LocalMetricFrame, fingerprints: InputFingerprints,
                       _ clock: Clock, _ pool: WorkerPool) -> LinkRun {
        stage(.assemble, clock, items: { $0.links.count }) {
            let campaign = options.resolvedCampaignID
            let buildingCount = layers.buildingRows!.count
            let addressRejects = inputs.addresses.rejects
            var result = LinkRun(options: options, campaignID: campaign, frame: frame, addresses: matched.addresses,
                                 addressLocations: layers.addressLocations, buildings: [], buildingFootprints: layers.buildingFootprints,
                                 links: [], linkOfAddress: LinkOfAddress(), unlinkedReason: UnlinkedReasons(), buildingLinkStart: [], units: units,
                                 rejects: addressRejects + layers.buildingRejects,
                                 report: RunReport(campaignID: campaign, metricFrame: frame.projString, options: optionSummary(),
                                                   run: .init(threads: pool.threadCount, secondsByStage: [:], secondsTotal: 0)))
            matched.addresses = []
            layers.addressLocations = []
            layers.buildingFootprints = FootprintStore([])
            LinkAssembly.assemble(&result, links: &matched.links, unlinked: matched.unlinked, buildingCount: buildingCount, pool: pool)
            result.buildings = layers.buildingRows.take()!.restore(pool: pool)
            matched.unlinked = []
            fingerprints.wait()  // the reports below find the digests remembered
            let b = inputs.buildings, a = inputs.addresses
            result.report.inputs["buildings"] = inputReport(inputs.buildingSource, b.crs, b.crsAssumed, accepted: buildingCount,
                                                            rejected: layers.buildingRejects.count, repaired: layers.repaired,
                                                            generated: b.generatedIDs)
            result.report.inputs["addresses"] = inputReport(inputs.addressSource, a.crs, a.crsAssumed, accepted: result.addresses.count,
                                                            rejected: addressRejects.count, repaired: nil, generated: a.generatedIDs)
            result.report.territory = inputs.territory?.source
            let outsideAddresses = layers.outsideAddresses + (inputs.addressSource.parquet?.rowsSkippedByBBox ?? 0)
            let outsideBuildings = layers.outsideBuildings + (inputs.buildingSource.parquet?.rowsSkippedByBBox ?? 0)
            RunSummary.count(&result, accessory: accessory, repaired: layers.repaired, outsideAddresses: outsideAddresses,
                             outsideBuildings: outsideBuildings, buildingRejects: layers.buildingRejects.count,
                             addressRejects: addressRejects.count)
            return (result, "\(result.links.count) links")
        }
    }
}
