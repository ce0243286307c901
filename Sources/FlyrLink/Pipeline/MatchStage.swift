/// The match stage's outcome: a link or an unlinked reason per address (not a whole verdict), the
/// address rows decompressed, and the scene of the possible townhouse rows: all the split reads.
package struct MatchedAddresses {
    var links: [Link]
    var unlinked: [UnlinkedReason?]
    var addresses: [AddressPoint]
    var rowScene: MetricScene
}

extension LinkPipeline {
    /// match: each address's link or why it has none, as `source` decides; the scene, the grid
    /// and the compressed address rows end here.
    package func matchStage(_ indexed: consuming IndexedScene, _ addressRows: consuming CompressedRows<AddressPoint>, buildingRows: CompressedRows<Building>,
                    accessory: [Bool], deciding source: any DecisionSource, _ clock: Clock, _ pool: WorkerPool) throws -> MatchedAddresses {
        let running = start(.match, clock)
        let matched = try source.decide(consume indexed, consume addressRows, buildingRows: buildingRows, accessory: accessory,
                                        options: options, pool: pool)
        return running.finish(matched, "\(matched.links.count) of \(matched.unlinked.count) linked", items: matched.unlinked.count)
    }
}

extension MatchedAddresses {
    /// `decided`, with the split's scene cut from the search's whole `scene` (then freed off this
    /// thread) and the house keys made from the addresses.
    package init(_ decided: (links: [Link], unlinked: [UnlinkedReason?]), addresses: [AddressPoint], cutFrom scene: consuming MetricScene,
         pool: WorkerPool) {
        let rows = Self.linkedTwice(decided.links, buildingCount: scene.footprints.count)
        let rowScene = scene.restricted(toBuildings: rows, pool: pool)
        BackgroundRelease.dropAndTrim(consume scene)
        self.init(links: decided.links, unlinked: decided.unlinked, addresses: addresses,
                  rowScene: rowScene.withAddressKeys(HouseNumber.keys(addresses, pool: pool)))
    }

    /// `decided`, with the split's scene cut from what the search left compressed.
    init(_ decided: (links: [Link], unlinked: [UnlinkedReason?]), addresses: [AddressPoint], cutFrom compressed: CompressedScene, pool: WorkerPool) {
        let rows = Self.linkedTwice(decided.links, buildingCount: compressed.buildingCount)
        let rowScene = MetricScene.restricted(to: rows, of: compressed.footprints, addressPoints: compressed.addressPoints, pool: pool)
        self.init(links: decided.links, unlinked: decided.unlinked, addresses: addresses, rowScene: rowScene.withAddressKeys(compressed.houseKeys))
    }

    /// The buildings (ascending) that two links or more name: the only possible townhouse rows.
    static func linkedTwice(_ links: [Link], buildingCount: Int) -> [Int32] {
        var count = [UInt8](repeating: 0, count: buildingCount)
        for l in links where count[l.buildingIndex] < 2 { count[l.buildingIndex] += 1 }
        return count.indices.compactMap { count[$0] >= 2 ? Int32($0) : nil }
    }
}
