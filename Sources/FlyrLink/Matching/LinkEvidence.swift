/// What a run's features are measured from once the search is done: the candidates, the
/// addresses' keys, each address's first building, and the run's two measures.
package struct LinkEvidence: Sendable {
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
    package let measuresPart: RunMeasures

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
