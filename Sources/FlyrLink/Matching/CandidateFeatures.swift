import Foundation

/// The evidence about one candidate of one address, by name, as the link model reads it: the
/// model file lists its names, and a run refuses a model whose names differ.
enum CandidateFeatures {
    static let names = CandidateFeature.allCases.map(\.name)

    /// Stands in for "none" where a distance or gap has nothing to measure (never NaN: the trees
    /// compare numbers only).
    static let farAway = 100.0
    static let noGap = 1000.0

    /// The features of every candidate of `a`, candidate `rank`'s at `x[rank * names.count...]`; what
    /// is the same for all of an address's candidates is found once.
    static func fill(_ x: inout [Double], address a: Int, evidence e: borrowing LinkEvidence) {
        // (Entries read one by one, not as a slice: a slice would count a reference shared by the workers.)
        let own = e.candidates.entries(of: a)
        guard !own.isEmpty else { return }
        let nearest = Double(e.candidates.entry(own.lowerBound).distance)
        var largest = 0.0
        // Bit k: candidate k is no other address's first choice (and not a shed), so an
        // alternative when two addresses want one house. (At most `CandidateTable.limit`, 6, fit a byte.)
        var unclaimed: UInt8 = 0
        for k in 0..<own.count {
            let o = e.candidates.entry(own.lowerBound + k)
            largest = max(largest, Double(e.candidates.area(o)))
            // (Claimants are distinct addresses: none but `a` is at most one, `a`.)
            let claimants = e.claimants.range(of: Int(o.building))
            if !e.accessory[Int(o.building)], claimants.isEmpty || (claimants.count == 1 && e.claimants.member(claimants.lowerBound) == a) {
                unclaimed |= 1 << k
            }
        }
        let sight = LineOfSightSizes(own: own, candidates: e.candidates)
        for rank in 0..<own.count {
            fill(&x, at: rank * names.count, address: a, rank: rank, nearest: nearest, largest: largest, unclaimed: unclaimed,
                 sight: sight, own: own, evidence: e)
        }
    }

    private static func fill(_ x: inout [Double], at offset: Int, address a: Int, rank: Int, nearest: Double, largest: Double,
                             unclaimed: UInt8, sight: borrowing LineOfSightSizes, own: Range<Int>, evidence e: borrowing LinkEvidence) {
        let c = e.candidates.entry(own.lowerBound + rank)
        let d = Double(c.distance)
        let b = Int(c.building)
        let next = rank + 1 < own.count ? Double(e.candidates.entry(own.lowerBound + rank + 1).distance) : e.reach + 10
        var largerCloser = 0, unclaimedAlternative = noGap
        for k in 0..<own.count {
            let o = e.candidates.entry(own.lowerBound + k)
            largerCloser += k < rank && e.candidates.area(o) > e.candidates.area(c) ? 1 : 0  // no branch on the areas
            // Another candidate of this address that no other address sees first: when two
            // addresses want one house, the farther one's may be that one.
            if k != rank, unclaimed & (1 << k) != 0 {
                unclaimedAlternative = min(unclaimedAlternative, Double(o.distance) - d)
            }
        }
        let dc = Double(e.candidates.centroidDistance(ofEntry: own.lowerBound + rank))
        let number = e.numbers[a]
        let others = if let s = e.crowded.slot(of: b) {
            OtherAddresses(crowded: s, address: a, rank: rank, candidate: c, centroidDistance: dc, evidence: e)
        } else {
            OtherAddresses(looping: b, address: a, candidate: c, centroidDistance: dc, own: own, evidence: e)
        }
        let toNearestPoint = (dx: c.dx, dy: c.dy)  // widened once, not at each of the four uses
        let side = e.sides.agreement(of: a, offset: toNearestPoint)
        let placement = e.sides.alongAndAcross(of: a, offset: toNearestPoint)
        // The row's cells by feature: a name cannot drift from its column.
        func set(_ feature: CandidateFeature, _ value: Double) { x[offset + feature.rawValue] = value }
        set(.distance, d)
        set(.inside, c.covers ? 1 : 0)
        set(.rank, Double(rank))
        set(.behindNearest, d - nearest)
        set(.aheadOfNext, next - d)
        let area = Double(e.candidates.area(c))
        set(.logArea, log(max(area, 1)))
        set(.logAreaVsLargest, log(max(area, 1) / max(largest, 1)))
        set(.candidates, Double(own.count))
        set(.accessory, e.accessory[b] ? 1 : 0)
        set(.facesCorner, c.atCorner ? 1 : 0)
        set(.claimants, min(others.claimants, 50))
        set(.claimantsInside, Double(min(others.inside, 50)))
        set(.nearestClaimant, others.nearestClaimant)
        set(.closerThanClaimants, d - others.nearestClaimant)
        set(.claimantsCloser, Double(min(others.closer, 50)))
        set(.claimantSameHouse, others.sameHouse)
        set(.claimantNumberGapSameStreet, others.gap)
        set(.claimantsOtherStreet, min(others.otherStreet, 50))
        set(.largerCloserCandidates, Double(largerCloser))
        set(.runShareInside, e.shareInside)
        set(.runMedianNearest, e.medianNearest)
        set(.nearestOtherAddress, others.nearestOther)
        set(.otherAddressesCloser, Double(min(others.othersCloser, 50)))
        set(.sideVsSameParity, side.same)
        set(.sideVsOtherParity, side.other)
        set(.alongStreet, placement.along)
        set(.acrossStreet, placement.across)
        set(.leftOfRisingNumbers, e.sides.leftOfRisingNumbers(a, offset: toNearestPoint))
        set(.oddNumber, number < 0 ? -1 : Double(number % 2))
        let convention = e.sides.onConventionSide(a, number: number, offset: toNearestPoint)
        set(.onRunConventionSide, convention.run)
        set(.onStreetConventionSide, convention.street)
        set(.unclaimedAlternative, unclaimedAlternative)
        set(.centroid, dc)
        set(.othersCloserToCentroid, Double(min(others.closerToCentroid, 50)))
        set(.closerToCentroidThanOthers, dc - (others.nearestToCentroid.isFinite ? others.nearestToCentroid : farAway))
        set(.largerBehind, sight.largerBehind[rank])
        set(.smallerInFront, sight.smallerInFront[rank])
    }
}
