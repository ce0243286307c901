/// Keeps an address on its previous snapshot's building unless the new data gives a clearly better
/// one (covering beats proximity; else within `stickyMargin` m), so links do not flap between refreshes.
enum StickyLinks {
    /// `previous[a]`: the index (in this run) of the building address `a` was linked to before, if any.
    /// Returns how many proposals were changed back to the previous building.
    @discardableResult
    /// `surroundings`: those of (at least) every address with a previous building.
    static func apply(_ proposals: inout [ProximityMatcher.Proposal?], surroundings: [Int: AddressSurroundings],
                      previous: [Int?], accessory: [Bool], options: LinkOptions) -> Int {
        var kept = 0
        for a in proposals.indices {
            guard let prev = previous[a], let proposal = proposals[a], proposal.building != prev,
                  let s = surroundings[a] else { continue }
            switch proposal.method {
            case .exact:
                guard s.covering.contains(prev) else { continue }
                proposals[a]?.building = prev
                kept += 1
            case .proximity:
                guard let old = s.nearby.first(where: { $0.building == prev }),
                      old.distance <= proposal.distance + options.stickyMargin else { continue }
                if accessory[prev] && !accessory[proposal.building] { continue }
                let alternative = s.nearby.first { $0.building != prev && !accessory[$0.building] }
                proposals[a] = ProximityMatcher.Proposal(building: prev, method: .proximity, distance: old.distance,
                                                         nearestPoint: old.nearestPoint, alternativeDistance: alternative?.distance,
                                                         coveringCount: 0)
                kept += 1
            }
        }
        return kept
    }

    /// Each address's previous building (`links`: address id → building id), read from the compressed
    /// rows' ids; nil when no previous links were given.
    static func previous(_ links: [String: String], addressRows: CompressedRows<AddressPoint>, buildingRows: CompressedRows<Building>,
                         pool: WorkerPool) -> [Int?]? {
        guard !links.isEmpty else { return nil }
        return previousIndices(addressIDs: addressRows.map(pool: pool) { $1.id }, buildingIDs: buildingRows.map(pool: pool) { $1.id }, links: links)
    }

    /// For each address, the index of its previous building in `buildingIDs`, from a map of
    /// address id → building id (buildings that are gone map to nil).
    static func previousIndices(addressIDs: [String], buildingIDs: [String], links: [String: String]) -> [Int?] {
        guard !links.isEmpty else { return [Int?](repeating: nil, count: addressIDs.count) }
        var index: [String: Int] = [:]
        for (i, id) in buildingIDs.enumerated() { index[id] = i }
        return addressIDs.map { links[$0].flatMap { index[$0] } }
    }
}
