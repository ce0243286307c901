/// candidates → evidence → the link model → decision (`Matching/`); the evidence also written to
/// `evidencePath` (`--write-evidence`).
package struct LinkModelDecisions: DecisionSource {
    let model: LinkModel
    let evidencePath: String?

    package func decide(_ indexed: consuming IndexedScene, _ addressRows: consuming CompressedRows<AddressPoint>, buildingRows: CompressedRows<Building>,
                accessory: [Bool], options: RunOptions, pool: WorkerPool) throws -> MatchedAddresses {
        let previous = StickyLinks.previous(options.previousLinks, addressRows: addressRows, buildingRows: buildingRows, pool: pool)
        let (evidence, compressed) = Self.evidence(consume indexed, addressRows: addressRows, accessory: accessory, options: options.link, pool: pool)
        if let evidencePath {
            try EvidenceExport.write(evidence, model: model, addressIDs: addressRows.map(pool: pool) { $1.id },
                                     buildingIDs: buildingRows.map(pool: pool) { $1.id }, to: evidencePath, pool: pool)
        }
        let decided = LinkDecision.decide(consume evidence, model: model, options: options.link, previous: previous, pool: pool)
        let addresses = (consume addressRows).decompressed(pool: pool)  // (after the evidence is freed)
        return MatchedAddresses(decided, addresses: addresses, cutFrom: compressed, pool: pool)
    }

    /// candidates → evidence: the grid freed once the candidates exist, the scene once the footprints two
    /// addresses see are compressed. `measures`, `counted`: a distributed run's tile (`LinkEvidence.init`).
    package static func evidence(_ indexed: consuming IndexedScene, addressRows: CompressedRows<AddressPoint>, accessory: [Bool], options: LinkOptions,
                         measures: RunMeasures? = nil, counted: [Bool]? = nil, pool: WorkerPool) -> (evidence: LinkEvidence, compressed: CompressedScene) {
        let scene = indexed.scene
        let candidates = CandidateSearch.candidates(scene, index: indexed.index, options: options, pool: pool)
        _ = consume indexed  // (the grid freed; the scene is `scene`'s alone)
        precondition(scene.buildings.isEmpty, "the search runs on every building")
        let footprints = CompressedFootprints(compressing: scene.footprints, buildings: candidates.buildingsSeenTwice(), pool: pool)
        let points = scene.addressPoints, buildingCount = scene.footprints.count
        BackgroundRelease.dropAndTrim(consume scene)
        let keys = AddressKeys(addressRows, pool: pool)
        let compressed = CompressedScene(footprints: footprints, buildingCount: buildingCount, addressPoints: points, houseKeys: keys.houseKeys)
        return (LinkEvidence(candidates: candidates, accessory: accessory, keys: consume keys, points: points, reach: options.maxDistance,
                             measures: measures, counted: counted, pool: pool), compressed)
    }
}

/// What the split's scene is cut from once the search's scene is freed: the footprints two
/// addresses or more see (compressed), the address points, and the addresses' house keys.
package struct CompressedScene {
    var footprints: CompressedFootprints
    var buildingCount: Int
    var addressPoints: [Point2]
    var houseKeys: HouseKeys
}
