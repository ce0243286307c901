/// What the other addresses that see a candidate say of it (claimants and seers), counted by a loop
/// or from `CrowdedBuildings`' sorted lists: the same numbers either way.
struct OtherAddresses {
    var claimants = 0.0, inside = 0, closer = 0, nearestClaimant = CandidateFeatures.farAway
    var sameHouse = 0.0, gap = CandidateFeatures.noGap, otherStreet = 0.0
    var nearestOther = CandidateFeatures.farAway, othersCloser = 0
    /// Infinity when no other address sees it.
    var nearestToCentroid = Double.infinity, closerToCentroid = 0

    /// By a loop over building b's claimants and seers; `own`: address a's entries.
    init(looping b: Int, address a: Int, candidate c: CandidateTable.Candidate, centroidDistance dc: Double, own: Range<Int>,
         evidence e: LinkEvidence) {
        let d = Double(c.distance)
        let key = e.houseKeys[a], street = e.streets[a], number = e.numbers[a]
        #if DEBUG
        WorkCount.otherAddresses.add(e.claimants.size(of: b) + e.seers.size(of: b), ordering: .relaxed)
        #endif
        for o32 in e.claimants[b] {
            let o = Int(o32)
            guard o != a, let first = e.candidates.first(of: o) else { continue }
            let od = Double(first.distance)
            claimants += 1
            inside += first.covers ? 1 : 0  // counted with no branch, as the seers below
            closer += od < d ? 1 : 0
            nearestClaimant = min(nearestClaimant, od)
            if let key, e.houseKeys[o] == key { sameHouse = 1 }
            if street != 0, e.streets[o] != 0 {
                if e.streets[o] == street {
                    if number >= 0, e.numbers[o] >= 0 { gap = min(gap, Double(abs(number - e.numbers[o]))) }
                } else {
                    otherStreet += 1
                }
            }
        }
        // With no branch on what is read (this address's own entry counts as infinitely far, which
        // changes neither the minimum nor the count): whether a seer is closer is a coin toss to the processor.
        for entry in e.seers[b] {
            let mine = own.contains(Int(entry))
            let od = mine ? .infinity : Double(e.candidates.entry(Int(entry)).distance)
            let oc = mine ? .infinity : Double(e.candidates.centroidDistance(ofEntry: Int(entry)))
            nearestOther = min(nearestOther, od)
            othersCloser += od < d ? 1 : 0
            nearestToCentroid = min(nearestToCentroid, oc)
            closerToCentroid += oc < dc ? 1 : 0
        }
    }

    /// By binary searches in a crowded building's sorted lists. An address sees a building once and
    /// claims the one it sees first: its own entry is among the seers, and among the claimants at rank 0.
    init(crowd: CrowdedBuildings.Building, address a: Int, rank: Int, candidate c: CandidateTable.Candidate, centroidDistance dc: Double,
         evidence e: LinkEvidence) {
        typealias Sorted = CrowdedBuildings.Building
        let claims = rank == 0
        #if DEBUG
        // (Eight binary searches and lookups, each of at most 64 probes.)
        WorkCount.otherAddresses.add(8 * (crowd.seerDistances.count.bitWidth - crowd.seerDistances.count.leadingZeroBitCount), ordering: .relaxed)
        #endif
        let key = e.houseKeys[a], street = e.streets[a], number = e.numbers[a]
        claimants = Double(crowd.claimantDistances.count - (claims ? 1 : 0))
        inside = crowd.claimantsInside - (claims && c.covers ? 1 : 0)
        closer = Sorted.below(c.distance, in: crowd.claimantDistances)
        let leastClaimant = claims ? Sorted.leastOther(than: c.distance, in: crowd.claimantDistances) : crowd.claimantDistances.first
        if let leastClaimant { nearestClaimant = min(nearestClaimant, Double(leastClaimant)) }
        if let key, (crowd.claimantsByHouse[key] ?? 0) > (claims ? 1 : 0) { sameHouse = 1 }
        if street != 0 {
            let sameStreet = crowd.claimantsByStreet[street]
            otherStreet = Double(crowd.claimantsWithStreet - (sameStreet?.count ?? 0))
            if number >= 0, let numbers = sameStreet?.numbers, let least = Sorted.nearestGap(to: number, in: numbers, member: claims) {
                gap = min(gap, Double(least))
            }
        }
        othersCloser = Sorted.below(c.distance, in: crowd.seerDistances)
        if let least = Sorted.leastOther(than: c.distance, in: crowd.seerDistances) { nearestOther = min(nearestOther, Double(least)) }
        closerToCentroid = Sorted.below(Float(dc), in: crowd.seerCentroidDistances)
        if let least = Sorted.leastOther(than: Float(dc), in: crowd.seerCentroidDistances) { nearestToCentroid = Double(least) }
    }
}
