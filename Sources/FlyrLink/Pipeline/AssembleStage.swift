extension LinkPipeline {
    /// assemble: the links grouped by building, the building rows decompressed, and the report's
    /// inputs and counts.
    func assembleStage(_ linked: consuming LinkedAddresses, _ records: consuming FramedRecords, accessory: [Bool], sources: InputSources,
                       frame: LocalMetricFrame, fingerprints: InputFingerprints, _ clock: Clock, _ pool: WorkerPool) -> LinkRun {
        let running = start(.assemble, clock)
        let account = records.account
        var result = assembledRun(consume linked, consume records, rejects: sources.addresses.rejects + account.buildingRejects,
                                  frame: frame, pool: pool)
        fingerprints.wait()  // the reports below find the digests remembered
        result.report.inputs = inputReports(sources, account, buildings: result.buildings.count, addresses: result.addresses.count)
        result.report.territory = sources.territory?.source
        let outside = Self.outside(sources, account)
        (result.report.counts, result.report.confidenceHistogram) = RunSummary.counts(
            result, accessory: accessory, repaired: account.repaired, outsideAddresses: outside.addresses, outsideBuildings: outside.buildings,
            buildingRejects: account.buildingRejects.count, addressRejects: sources.addresses.rejects.count)
        return running.finish(result, "\(result.links.count) links", items: result.links.count)
    }

    /// The run the outputs are written from (a tile's outputs pass writes its part from the same):
    /// the links grouped by building, the building rows decompressed, a report of the options alone.
    package func assembledRun(_ linked: consuming LinkedAddresses, _ records: consuming FramedRecords, rejects: [Reject],
                      frame: LocalMetricFrame, pool: WorkerPool) -> LinkRun {
        let campaign = options.resolvedCampaignID
        let links = linked.links, unlinked = linked.unlinked, addresses = linked.addresses, units = linked.units
        _ = consume linked  // (the links are `links`' alone, freed once grouped)
        let assembly = LinkAssembly(grouping: consume links, unlinked: unlinked, addresses: addresses,
                                    buildingCount: records.buildingRows.count, pool: pool)
        return LinkRun(options: options, campaignID: campaign, frame: frame, addresses: addresses,
                       addressLocations: records.points, buildings: records.buildingRows.decompressed(pool: pool),
                       buildingFootprints: records.footprints, links: assembly.links, linkOfAddress: assembly.linkOfAddress,
                       unlinkedReason: assembly.unlinkedReason, buildingLinkStart: assembly.buildingLinkStart, units: units, rejects: rejects,
                       report: RunReport(campaignID: campaign, metricFrame: frame.projString, options: optionSummary(),
                                         run: .init(threads: pool.threadCount, secondsByStage: [:], secondsTotal: 0)))
    }
}
