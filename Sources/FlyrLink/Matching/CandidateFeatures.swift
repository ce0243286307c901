import Foundation

/// The evidence about one candidate building of one address: what the link model reads, by name.
/// The model file lists the names it was fitted on; a run refuses a model whose names differ.
///
/// Four kinds of evidence: the candidate as the address sees it (distance, rank, margins, size,
/// accessory, corner); the other addresses that see the building (its claimants, which see it
/// first: how many, how close, whether they are the same house, a neighbour on the same street or
/// another street's; and every address that has it among its candidates, by the outline and by
/// the centroid); where it lies against
/// the street (`StreetSides`: the side of the neighbours of each parity, along and across); and
/// the run as a whole (how this source places its points), so that one model serves sources whose
/// points sit inside the building, at the parcel or on the road.
enum CandidateFeatures {
    static let names = [
        "distance_m", "inside", "rank", "behind_nearest_m", "ahead_of_next_m", "log_area_m2", "log_area_vs_largest",
        "candidates", "accessory", "faces_corner",
        "claimants", "claimants_inside", "nearest_claimant_m", "closer_than_claimants_m", "claimants_closer",
        "claimant_same_house", "claimant_number_gap_same_street", "claimants_other_street",
        "larger_closer_candidates", "run_share_inside", "run_median_nearest_m",
        "nearest_other_address_m", "other_addresses_closer", "side_vs_same_parity", "side_vs_other_parity",
        "along_street_m", "across_street_m", "left_of_rising_numbers", "odd_number", "on_run_convention_side",
        "on_street_convention_side", "unclaimed_alternative_m",
        "centroid_m", "others_closer_to_centroid", "closer_to_centroid_than_others_m",
    ]

    /// Where "claimants_closer" sits in a row (the unlinked reason reads it).
    static let claimantsCloser = names.firstIndex(of: "claimants_closer")!
    /// The two measures of the whole run: one value for every candidate (`LinkModel.fixing`).
    static let runShareInside = names.firstIndex(of: "run_share_inside")!
    static let runMedianNearest = names.firstIndex(of: "run_median_nearest_m")!

    /// Stands in for "none" where a distance or gap has nothing to measure (never NaN: the trees
    /// compare numbers only).
    static let farAway = 100.0
    static let noGap = 1000.0

    /// The features of every candidate of address `a`, candidate `rank`'s into
    /// `x[rank * names.count..<(rank + 1) * names.count]`. One address at a time: what is the same
    /// for all its candidates (the largest area, which of them no other address sees first) is
    /// found once, not once per candidate.
    static func fill(_ x: inout [Double], address a: Int, evidence e: LinkEvidence) {
        let list = e.candidates[a]
        guard !list.isEmpty else { return }
        let nearest = Double(list.first!.distance)
        var largest = 0.0
        // Bit k: candidate k is no other address's first choice (and not a shed), so an
        // alternative when two addresses want one house. (At most `CandidateTable.limit`, 6, fit a byte.)
        var unclaimed: UInt8 = 0
        for (k, o) in list.enumerated() {
            largest = max(largest, Double(e.candidates.area(o)))
            // (Claimants are distinct addresses: none but `a` is at most one, `a`.)
            let claimants = e.claimants[Int(o.building)]
            if !e.accessory[Int(o.building)], claimants.isEmpty || (claimants.count == 1 && Int(claimants.first!) == a) { unclaimed |= 1 << k }
        }
        let own = e.candidates.entries(of: a)
        for rank in 0..<list.count {
            fill(&x, at: rank * names.count, address: a, rank: rank, list: list, nearest: nearest, largest: largest,
                 unclaimed: unclaimed, own: own, evidence: e)
        }
    }

    private static func fill(_ x: inout [Double], at offset: Int, address a: Int, rank: Int, list: ArraySlice<CandidateTable.Candidate>,
                             nearest: Double, largest: Double, unclaimed: UInt8, own: Range<Int>, evidence e: LinkEvidence) {
        let c = list[list.startIndex + rank]
        let d = Double(c.distance)
        let b = Int(c.building)
        let next = rank + 1 < list.count ? Double(list[list.startIndex + rank + 1].distance) : e.reach + 10
        var largerCloser = 0, unclaimedAlternative = noGap
        for (k, o) in list.enumerated() {
            largerCloser += k < rank && e.candidates.area(o) > e.candidates.area(c) ? 1 : 0  // no branch on the areas
            // Another candidate of this address that no other address sees first: when two
            // addresses want one house, the farther one's may be that one.
            if k != rank, unclaimed & (1 << k) != 0 {
                unclaimedAlternative = min(unclaimedAlternative, Double(o.distance) - d)
            }
        }
        let dc = Double(e.candidates.centroidDistance(ofEntry: own.lowerBound + rank))
        let number = e.numbers[a]
        let others = e.crowded[building: b].map { OtherAddresses(crowd: $0, address: a, rank: rank, candidate: c, centroidDistance: dc, evidence: e) }
            ?? OtherAddresses(looping: b, address: a, candidate: c, centroidDistance: dc, own: own, evidence: e)
        let toNearestPoint = (dx: c.dx, dy: c.dy)  // widened once, not at each of the four uses
        let side = e.sides.agreement(of: a, offset: toNearestPoint)
        let placement = e.sides.alongAndAcross(of: a, offset: toNearestPoint)
        x[offset + 0] = d
        x[offset + 1] = c.covers ? 1 : 0
        x[offset + 2] = Double(rank)
        x[offset + 3] = d - nearest
        x[offset + 4] = next - d
        let area = Double(e.candidates.area(c))
        x[offset + 5] = log(max(area, 1))
        x[offset + 6] = log(max(area, 1) / max(largest, 1))
        x[offset + 7] = Double(list.count)
        x[offset + 8] = e.accessory[b] ? 1 : 0
        x[offset + 9] = c.atCorner ? 1 : 0
        x[offset + 10] = min(others.claimants, 50)
        x[offset + 11] = Double(min(others.inside, 50))
        x[offset + 12] = others.nearestClaimant
        x[offset + 13] = d - others.nearestClaimant
        x[offset + 14] = Double(min(others.closer, 50))
        x[offset + 15] = others.sameHouse
        x[offset + 16] = others.gap
        x[offset + 17] = min(others.otherStreet, 50)
        x[offset + 18] = Double(largerCloser)
        x[offset + 19] = e.shareInside
        x[offset + 20] = e.medianNearest
        x[offset + 21] = others.nearestOther
        x[offset + 22] = Double(min(others.othersCloser, 50))
        x[offset + 23] = side.same
        x[offset + 24] = side.other
        x[offset + 25] = placement.along
        x[offset + 26] = placement.across
        x[offset + 27] = e.sides.leftOfRisingNumbers(a, offset: toNearestPoint)
        x[offset + 28] = number < 0 ? -1 : Double(number % 2)
        let convention = e.sides.onConventionSide(a, number: number, offset: toNearestPoint)
        x[offset + 29] = convention.run
        x[offset + 30] = convention.street
        x[offset + 31] = unclaimedAlternative
        x[offset + 32] = dc
        x[offset + 33] = Double(min(others.closerToCentroid, 50))
        x[offset + 34] = dc - (others.nearestToCentroid.isFinite ? others.nearestToCentroid : farAway)
    }
}

/// What the features of a run are measured from, once the candidate search is done: the
/// candidates, the addresses' keys, which building each address sees first, and the two
/// measures of the whole run.
struct LinkEvidence: Sendable {
    let candidates: CandidateTable
    let accessory: [Bool]
    let houseKeys: HouseKeys
    /// A hash of each address's street name as `HouseNumber.key` normalises it; 0 for none.
    let streets: [UInt64]
    /// Each address's house number's leading digits; -1 for none.
    let numbers: [Int32]
    /// The addresses whose nearest candidate is building b, ascending.
    let claimants: IndexGroups
    /// The candidates whose building is b, as entries of `candidates` (an entry, not the address
    /// and rank: a feature reads its distance with one load, not two).
    let seers: IndexGroups
    /// The buildings many addresses see, their seers and claimants sorted once.
    let crowded: CrowdedBuildings
    let sides: StreetSides
    let reach: Double
    /// The share of addresses inside a footprint, and the median distance from an address to its
    /// nearest footprint (of those with one within reach): how the source places its points.
    let shareInside: Double
    let medianNearest: Double
    /// The counted addresses' part of the run's measures (all of a run's; a tile's own addresses'
    /// in a distributed run, whose parts add up to the run's).
    let measuresPart: RunMeasures

    /// `given`: the run's measures, when they are made from more than these addresses (a tile of a
    /// distributed run); `counted`: which addresses make `measuresPart` (nil: all).
    init(candidates: CandidateTable, accessory: [Bool], keys: AddressKeys, points: [Point2], reach: Double,
         measures given: RunMeasures? = nil, counted: [Bool]? = nil, pool: WorkerPool) {
        self.candidates = candidates
        self.accessory = accessory
        houseKeys = keys.houseKeys
        streets = keys.streets
        numbers = keys.numbers
        self.reach = reach
        var part = RunMeasures()
        for a in 0..<candidates.addressCount where counted?[a] ?? true {
            let first = candidates.first(of: a)
            part.addPlacement(covers: first?.covers, distance: first?.distance ?? 0)
        }
        // The street sides first: their grid is gone before the groups are made (a lower peak).
        sides = StreetSides(points: points, streets: streets, numbers: numbers, candidates: candidates, pool: pool) { plain in
            for (a, v) in plain.enumerated() where v != 0 && counted?[a] ?? true { part.addVote(v, street: keys.streets[a]) }
            return given ?? part
        }
        let measures = given ?? part
        shareInside = measures.shareInside
        medianNearest = measures.medianNearest(reach: reach)
        measuresPart = part
        claimants = IndexGroups(count: candidates.addressCount, keyCount: accessory.count) { candidates.first(of: $0).map { Int($0.building) } }
        seers = IndexGroups(count: candidates.entryCount, keyCount: accessory.count) { Int(candidates.entry($0).building) }
        crowded = CrowdedBuildings(candidates: candidates, claimants: claimants, seers: seers, houseKeys: houseKeys, streets: streets, numbers: numbers)
    }
}
