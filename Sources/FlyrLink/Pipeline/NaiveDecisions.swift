/// The baseline (`--matcher naive`): containment, then the nearest footprint within reach.
struct NaiveDecisions: DecisionSource {
    package func decide(_ indexed: consuming IndexedScene, _ addressRows: consuming CompressedRows<AddressPoint>, buildingRows: CompressedRows<Building>,
                accessory: [Bool], options: RunOptions, pool: WorkerPool) -> MatchedAddresses {
        let previous = StickyLinks.previous(options.previousLinks, addressRows: addressRows, buildingRows: buildingRows, pool: pool)
        let scene = indexed.scene
        let proposals = Self.proposals(scene, index: indexed.index, accessory: accessory, previous: previous, options: options.link, pool: pool)
        let addresses = (consume addressRows).decompressed(pool: pool)
        let decided = ProximityMatcher.decide(proposals: consume proposals, pool: pool)
        _ = consume indexed  // (the grid freed; the scene is `scene`'s alone)
        return MatchedAddresses(decided, addresses: addresses, cutFrom: consume scene, pool: pool)
    }

    /// Each address's proposal, the previous building kept where it still holds (`previous`).
    private static func proposals(_ scene: MetricScene, index: FootprintIndex, accessory: [Bool], previous: [Int?]?, options: LinkOptions,
                                  pool: WorkerPool) -> [ProximityMatcher.Proposal?] {
        var (proposals, surroundings) = CandidateSearch.proposals(scene, index: index, options: options, accessory: accessory,
                                                                 pool: pool, keep: previous.map { $0.map { $0 != nil } })
        if let previous {
            StickyLinks.apply(&proposals, surroundings: surroundings, previous: previous, accessory: accessory, options: options)
        }
        return proposals
    }
}
