/// Keeps an address on the building it was linked to in the previous snapshot unless the new data
/// gives a clearly better one, so links do not flap between near-equal buildings from one refresh
/// to the next (issue 5). Runs on the matcher's proposals, before the ownership rule and confidence.
///
/// - The new choice covers the point: the previous building is kept only if it covers it too.
/// - The new choice is a proximity link: the previous building is kept if it is still within
///   reach and at most `stickyMargin` metres farther than the new one, and it is not an accessory
///   structure losing to a main building (the accessory rule comes first).
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

    /// For each address, the index of its previous building in `buildingIDs`, from a map of
    /// address id → building id (buildings that are gone map to nil).
    static func previousIndices(addressIDs: [String], buildingIDs: [String], links: [String: String]) -> [Int?] {
        guard !links.isEmpty else { return [Int?](repeating: nil, count: addressIDs.count) }
        var index: [String: Int] = [:]
        for (i, id) in buildingIDs.enumerated() { index[id] = i }
        return addressIDs.map { links[$0].flatMap { index[$0] } }
    }
}
