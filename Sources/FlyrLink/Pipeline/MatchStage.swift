import Foundation

/// The match stage's outcome: a link or unlinked reason per address (not a whole verdict), the
/// address rows unparked, and the footprints of the possible townhouse rows: all the split reads.
struct MatchedAddresses {
    var links: [Link]
    var unlinked: [UnlinkedReason?]
    var addresses: [AddressPoint]
    var rowScene: MetricScene?
}

/// The match stage's two ways: the naive baseline, and candidates → evidence → model → decision.
extension LinkPipeline {
    /// match: candidates → evidence → model → decision (`evidenceMatch`, Matching/), or the naive
    /// baseline. The footprints two addresses see are parked as soon as the candidates are found,
    /// and after the decisions only the possible rows' are unpacked.
    func matchStage(_ indexed: inout IndexedScene, _ layers: inout FramedLayers, _ clock: Clock, _ pool: WorkerPool) throws -> MatchedAddresses {
        try stage(.match, clock, items: { $0.unlinked.count }) {
            let previous = options.previousLinks.isEmpty ? nil
                : StickyLinks.previousIndices(addressIDs: layers.addressRows!.map(pool: pool) { $1.id },
                                              buildingIDs: layers.buildingRows!.map(pool: pool) { $1.id }, links: options.previousLinks)
            let decided: (links: [Link], unlinked: [UnlinkedReason?])
            var addresses: [AddressPoint] = []
            var houseKeys: HouseKeys?
            var parked: (footprints: ParkedFootprints, addressPoints: [Point2])?
            if let directory = options.decisionsDirectory {
                // A distributed run's tiles decided; the scene serves the split, as the baseline's,
                // and the grid nothing (dropped before the decisions are read).
                BackgroundRelease.dropAndTrim(indexed.index.take())
                addresses = layers.addressRows.take()!.restore(pool: pool)
                let buildingIDs = layers.buildingRows!.map(pool: pool) { $1.id }
                if let task = options.tile {
                    decided = try TileDecisions.around(task, directory, addressIDs: addresses.map(\.id), buildingIDs: buildingIDs)
                } else {
                    decided = try TileDecisions.merged(directory, options: options, addressIDs: addresses.map(\.id), buildingIDs: buildingIDs)
                }
            } else if options.link.strategy == .naive {
                decided = naiveMatch(indexed.scene!, index: indexed.index.take()!, accessory: indexed.accessory, previous: previous,
                                     addresses: &addresses, parkedAddresses: &layers.addressRows, pool: pool)
            } else {
                let points = indexed.scene!.addressPoints
                let matched = try evidenceMatch(&indexed.scene, index: &indexed.index, accessory: indexed.accessory, previous: previous,
                                                addresses: &addresses, houseKeys: &houseKeys, parkedAddresses: &layers.addressRows,
                                                parkedBuildings: layers.buildingRows!, pool: pool)
                decided = matched.decided
                parked = (matched.footprints, points)
            }
            // The split reads the footprints of the possible rows only: the scene (the naive
            // matcher's) is freed off this thread, the parked footprints unpacked only for those.
            let rows = Self.linkedTwice(decided.links, buildingCount: indexed.buildingCount)
            let rowScene = parked.map { MetricScene.restricted(to: rows, of: $0.footprints, addressPoints: $0.addressPoints, pool: pool) }
                ?? indexed.scene!.restricted(toBuildings: rows, pool: pool)
            BackgroundRelease.dropAndTrim(indexed.scene.take())
            rowScene.give(addressKeys: houseKeys ?? HouseNumber.keys(addresses, pool: pool))
            return (MatchedAddresses(links: decided.links, unlinked: decided.unlinked, addresses: addresses, rowScene: rowScene),
                    "\(decided.links.count) of \(decided.unlinked.count) linked")
        }
    }

    /// The baseline (`--matcher naive`): containment, then the nearest footprint within reach.
    func naiveMatch(_ scene: MetricScene, index: FootprintIndex, accessory: [Bool], previous: [Int?]?,
                    addresses: inout [AddressPoint], parkedAddresses: inout ParkedRows<AddressPoint>?,
                    pool: WorkerPool) -> (links: [Link], unlinked: [UnlinkedReason?]) {
        var (proposals, surroundings) = CandidateSearch.proposals(scene, index: index, options: options.link, accessory: accessory,
                                                                 pool: pool, keep: previous.map { $0.map { $0 != nil } })
        if let previous {
            StickyLinks.apply(&proposals, surroundings: surroundings, previous: previous, accessory: accessory, options: options.link)
        }
        addresses = parkedAddresses.take()!.restore(pool: pool)
        return ProximityMatcher.decide(proposals: consume proposals, pool: pool)
    }

    /// candidates → evidence → model → decision (`Matching/`), also to `--write-evidence`. Once the
    /// candidates exist, the grid and scene are freed and the possible rows' footprints parked.
    func evidenceMatch(_ scene: inout MetricScene?, index: inout FootprintIndex?, accessory: [Bool], previous: [Int?]?,
                       addresses: inout [AddressPoint], houseKeys: inout HouseKeys?, parkedAddresses: inout ParkedRows<AddressPoint>?,
                       parkedBuildings: ParkedRows<Building>, pool: WorkerPool) throws
        -> (decided: (links: [Link], unlinked: [UnlinkedReason?]), footprints: ParkedFootprints) {
        var model = try linkModel()
        if options.evidencePath != nil, case .failure(let error) = model {
            // Only in a build whose features changed since the model was fitted: the evidence is
            // what the re-fit reads, so it is still written, and the links are the nearest building's.
            FileHandle.standardError.write(Data("flyr-link: warning: \(error.message); this run links each address to its nearest candidate\n".utf8))
            model = .success(LinkModel.neutral)
        }
        let (evidence, parked) = linkEvidence(&scene, index: &index, accessory: accessory, houseKeys: &houseKeys,
                                              parkedAddresses: parkedAddresses!, pool: pool)
        if let path = options.evidencePath {
            try EvidenceExport.write(evidence, model: try model.get(), addressIDs: parkedAddresses!.map(pool: pool) { $1.id },
                                     buildingIDs: parkedBuildings.map(pool: pool) { $1.id }, to: path, pool: pool)
        }
        let decided = LinkDecision.decide(consume evidence, model: try model.get(), options: options.link, previous: previous, pool: pool)
        addresses = parkedAddresses.take()!.restore(pool: pool)  // (after the evidence is freed)
        return (decided, parked)
    }

    /// The run's link model: `--link-model`'s file (an error if it cannot be read), or the
    /// compiled-in one (a failure when this build's features differ from the model's).
    func linkModel() throws(InputError) -> Result<LinkModel, InputError> {
        try options.linkModelPath.map { path throws(InputError) in .success(try LinkModel(path: path)) } ?? LinkModel.compiledIn
    }

    /// candidates → evidence, freeing grid and scene and parking the possible rows' footprints as above.
    /// `measures`, `counted`: see `LinkEvidence.init` (a tile of a distributed run).
    func linkEvidence(_ scene: inout MetricScene?, index: inout FootprintIndex?, accessory: [Bool], houseKeys: inout HouseKeys?,
                      parkedAddresses: ParkedRows<AddressPoint>, measures: RunMeasures? = nil, counted: [Bool]? = nil,
                      pool: WorkerPool) -> (LinkEvidence, ParkedFootprints) {
        let candidates = CandidateSearch.candidates(scene!, index: index.take()!, options: options.link, pool: pool)
        precondition(scene!.buildings.isEmpty, "the search runs on every building")
        let parked = ParkedFootprints(scene!.footprints, buildings: candidates.buildingsSeenTwice(), pool: pool)
        let points = scene!.addressPoints
        BackgroundRelease.dropAndTrim(scene.take())
        let keys = AddressKeys(parkedAddresses, pool: pool)
        houseKeys = keys.houseKeys
        return (LinkEvidence(candidates: candidates, accessory: accessory, keys: consume keys, points: points,
                             reach: options.link.maxDistance, measures: measures, counted: counted, pool: pool), parked)
    }

    /// The buildings (ascending) that two links or more name: the only possible townhouse rows.
    static func linkedTwice(_ links: [Link], buildingCount: Int) -> [Int32] {
        var count = [UInt8](repeating: 0, count: buildingCount)
        for l in links where count[l.buildingIndex] < 2 { count[l.buildingIndex] += 1 }
        return count.indices.compactMap { count[$0] >= 2 ? Int32($0) : nil }
    }
}
