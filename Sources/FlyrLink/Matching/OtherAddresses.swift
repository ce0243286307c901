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
         evidence e: borrowing LinkEvidence) {
        let d = Double(c.distance)
        let key = e.houseKeys[a], street = e.streets[a], number = e.numbers[a]
        #if DEBUG
        WorkCount.otherAddresses.add(e.claimants.size(of: b) + e.seers.size(of: b), ordering: .relaxed)
        #endif
        for i in e.claimants.range(of: b) {
            let o = e.claimants.member(i)
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
        for i in e.seers.range(of: b) {
            let entry = e.seers.member(i), mine = own.contains(entry)
            let od = mine ? .infinity : Double(e.candidates.entry(entry).distance)
            let oc = mine ? .infinity : Double(e.candidates.centroidDistance(ofEntry: entry))
            nearestOther = min(nearestOther, od)
            othersCloser += od < d ? 1 : 0
            nearestToCentroid = min(nearestToCentroid, oc)
            closerToCentroid += oc < dc ? 1 : 0
        }
    }

    /// By binary searches in crowded building slot `s`'s sorted lists. An address sees a building once
    /// and claims the one it sees first: its own entry is among the seers, and among the claimants at rank 0.
    init(crowded s: Int, address a: Int, rank: Int, candidate c: CandidateTable.Candidate, centroidDistance dc: Double,
         evidence e: borrowing LinkEvidence) {
        typealias Sorted = CrowdedBuildings
        let claims = rank == 0
        let seers = e.crowded.seers(s), claimed = e.crowded.claimants(s)
        #if DEBUG
        // (Eight binary searches and lookups, each of at most 64 probes.)
        WorkCount.otherAddresses.add(8 * (seers.count.bitWidth - seers.count.leadingZeroBitCount), ordering: .relaxed)
        #endif
        let key = e.houseKeys[a], street = e.streets[a], number = e.numbers[a]
        claimants = Double(claimed.count - (claims ? 1 : 0))
        inside = Int(e.crowded.claimantsInside[s]) - (claims && c.covers ? 1 : 0)
        closer = Sorted.below(c.distance, in: e.crowded.claimantDistances, claimed)
        let leastClaimant = claims ? Sorted.leastOther(than: c.distance, in: e.crowded.claimantDistances, claimed)
            : claimed.isEmpty ? nil : e.crowded.claimantDistances[claimed.lowerBound]
        if let leastClaimant { nearestClaimant = min(nearestClaimant, Double(leastClaimant)) }
        if let key, (e.crowded.claimantsByHouse[.init(slot: Int32(s), key: key)] ?? 0) > (claims ? 1 : 0) { sameHouse = 1 }
        if street != 0 {
            let sameStreet = e.crowded.claimantsByStreet[.init(slot: Int32(s), street: street)]
            otherStreet = Double(Int(e.crowded.claimantsWithStreet[s]) - Int(sameStreet?.count ?? 0))
            if number >= 0, let numbers = sameStreet?.numbers,
               let least = e.crowded.nearestGap(to: number, in: Int(numbers.lowerBound)..<Int(numbers.upperBound), member: claims) {
                gap = min(gap, Double(least))
            }
        }
        othersCloser = Sorted.below(c.distance, in: e.crowded.seerDistances, seers)
        if let least = Sorted.leastOther(than: c.distance, in: e.crowded.seerDistances, seers) { nearestOther = min(nearestOther, Double(least)) }
        closerToCentroid = Sorted.below(Float(dc), in: e.crowded.seerCentroidDistances, seers)
        if let least = Sorted.leastOther(than: Float(dc), in: e.crowded.seerCentroidDistances, seers) { nearestToCentroid = Double(least) }
    }
}
