/// The other addresses' evidence about the buildings many see, sorted once so counts are binary
/// searches, not k² loops; below `threshold` the loop is used, with the same numbers.
/// Every list lies in one flat array (a crowded building's part a range of it), so reading one
/// copies no reference a worker would have to count.
struct CrowdedBuildings: Sendable {
    static let threshold = 32
    #if DEBUG
    /// Tests read every building from sorted lists (1), or none (`Int.max`), to compare them with the loop.
    nonisolated(unsafe) static var thresholdInTests: Int?
    #endif

    /// A crowded building's claimants on one street: how many, and where their house numbers
    /// (those with one, ascending) lie in `streetNumbers`.
    struct Street: Sendable {
        var count: Int32
        var numbers: Range<Int32>
    }

    struct HouseAt: Hashable, Sendable {
        let slot: Int32
        let key: HouseKey
    }

    struct StreetAt: Hashable, Sendable {
        let slot: Int32
        let street: UInt64
    }

    /// Slot of each crowded building, by building; -1 for the others.
    private let slot: [Int32]
    /// Slot s's seers are seerDistances[seerStart[s]..<seerStart[s + 1]] (each entry's distance,
    /// ascending), the same range of seerCentroidDistances (ascending too); its claimants' nearest
    /// distances likewise from `claimantStart`.
    private let seerStart: [Int32]
    let seerDistances: [Float]
    let seerCentroidDistances: [Float]
    private let claimantStart: [Int32]
    let claimantDistances: [Float]
    /// Per slot: how many claimants the building covers, and how many claimants have a street.
    let claimantsInside: [Int32]
    let claimantsWithStreet: [Int32]
    let claimantsByHouse: [HouseAt: Int32]
    let claimantsByStreet: [StreetAt: Street]
    let streetNumbers: [Int32]

    init(candidates: CandidateTable, claimants: IndexGroups, seers: IndexGroups, houseKeys: HouseKeys, streets: [UInt64], numbers: [Int32]) {
        var threshold = Self.threshold
        #if DEBUG
        threshold = Self.thresholdInTests ?? threshold
        #endif
        var slot = [Int32](repeating: -1, count: seers.groupCount)
        var seerStart: [Int32] = [0], claimantStart: [Int32] = [0]
        var seerDistances: [Float] = [], seerCentroidDistances: [Float] = [], claimantDistances: [Float] = []
        var claimantsInside: [Int32] = [], claimantsWithStreet: [Int32] = []
        var claimantsByHouse: [HouseAt: Int32] = [:], claimantsByStreet: [StreetAt: Street] = [:]
        var streetNumbers: [Int32] = []
        for b in 0..<seers.groupCount where seers.size(of: b) >= threshold {
            let s = Int32(seerStart.count - 1)
            slot[b] = s
            seerDistances += seers[b].map { candidates.entry(Int($0)).distance }.sorted()
            seerCentroidDistances += seers[b].map { candidates.centroidDistance(ofEntry: Int($0)) }.sorted()
            seerStart.append(Int32(seerDistances.count))
            var distances: [Float] = [], inside: Int32 = 0, withStreet: Int32 = 0
            var byStreet: [UInt64: (count: Int32, numbers: [Int32])] = [:]
            for o32 in claimants[b] {
                let o = Int(o32)
                guard let first = candidates.first(of: o) else { continue }
                distances.append(first.distance)
                inside += first.covers ? 1 : 0
                if let key = houseKeys[o] { claimantsByHouse[HouseAt(slot: s, key: key), default: 0] += 1 }
                if streets[o] != 0 {
                    withStreet += 1
                    byStreet[streets[o], default: (0, [])].count += 1
                    if numbers[o] >= 0 { byStreet[streets[o]]!.numbers.append(numbers[o]) }
                }
            }
            claimantDistances += distances.sorted()
            claimantStart.append(Int32(claimantDistances.count))
            claimantsInside.append(inside)
            claimantsWithStreet.append(withStreet)
            for (street, claims) in byStreet {
                let lower = Int32(streetNumbers.count)
                streetNumbers += claims.numbers.sorted()
                claimantsByStreet[StreetAt(slot: s, street: street)] = Street(count: claims.count, numbers: lower..<Int32(streetNumbers.count))
            }
        }
        self.slot = slot
        self.seerStart = seerStart
        self.seerDistances = seerDistances
        self.seerCentroidDistances = seerCentroidDistances
        self.claimantStart = claimantStart
        self.claimantDistances = claimantDistances
        self.claimantsInside = claimantsInside
        self.claimantsWithStreet = claimantsWithStreet
        self.claimantsByHouse = claimantsByHouse
        self.claimantsByStreet = claimantsByStreet
        self.streetNumbers = streetNumbers
    }

    /// Building b's slot, or nil when it is not crowded.
    func slot(of b: Int) -> Int? { slot[b] < 0 ? nil : Int(slot[b]) }

    func seers(_ s: Int) -> Range<Int> { Int(seerStart[s])..<Int(seerStart[s + 1]) }
    func claimants(_ s: Int) -> Range<Int> { Int(claimantStart[s])..<Int(claimantStart[s + 1]) }

    /// How many of `sorted[range]` (ascending) lie strictly below `v`.
    static func below(_ v: Float, in sorted: [Float], _ range: Range<Int>) -> Int {
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo - range.lowerBound
    }

    /// The least of `sorted[range]` once one copy of `own` (a member, the least or more) is left
    /// out; nil when none is left.
    static func leastOther(than own: Float, in sorted: [Float], _ range: Range<Int>) -> Float? {
        guard !range.isEmpty else { return nil }
        let least = sorted[range.lowerBound]
        if least < own { return least }
        return range.count > 1 ? sorted[range.lowerBound + 1] : nil
    }

    /// The least |number − n| over `streetNumbers[range]` (ascending) once one copy of `number` is
    /// left out when `member`; nil when none is left.
    func nearestGap(to number: Int32, in range: Range<Int>, member: Bool) -> Int32? {
        func firstIndex(from lo: Int, where isPast: (Int32) -> Bool) -> Int {
            var lo = lo, hi = range.upperBound
            while lo < hi {
                let mid = (lo + hi) / 2
                if isPast(streetNumbers[mid]) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        let lo = firstIndex(from: range.lowerBound) { $0 >= number }
        let end = firstIndex(from: lo) { $0 > number }
        if end - lo > (member ? 1 : 0) { return 0 }
        var gap: Int32?
        if lo > range.lowerBound { gap = number - streetNumbers[lo - 1] }
        if end < range.upperBound { gap = min(gap ?? .max, streetNumbers[end] - number) }
        return gap
    }
}
