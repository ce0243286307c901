/// The other addresses' evidence about a building many see, sorted once so counts are binary
/// searches, not k² loops; below `threshold` the loop is used, with the same numbers.
struct CrowdedBuildings: Sendable {
    static let threshold = 32
    #if DEBUG
    /// Tests read every building from sorted lists (1), or none (`Int.max`), to compare them with the loop.
    nonisolated(unsafe) static var thresholdInTests: Int?
    #endif

    struct Building: Sendable {
        /// Every seer entry's distance and centroid distance, ascending.
        var seerDistances: [Float] = []
        var seerCentroidDistances: [Float] = []
        /// Every claimant's nearest distance, ascending; how many of them it covers.
        var claimantDistances: [Float] = []
        var claimantsInside = 0
        /// Claimants by house key; by street (those with a street): how many, and their house
        /// numbers (those with one), ascending.
        var claimantsByHouse: [HouseKey: Int] = [:]
        var claimantsWithStreet = 0
        var claimantsByStreet: [UInt64: (count: Int, numbers: [Int32])] = [:]
    }

    /// Slot of each crowded building in `buildings`, by building; -1 for the others.
    private let slot: [Int32]
    private let buildings: [Building]

    init(candidates: CandidateTable, claimants: IndexGroups, seers: IndexGroups, houseKeys: HouseKeys, streets: [UInt64], numbers: [Int32]) {
        var slot = [Int32](repeating: -1, count: seers.groupCount)
        var buildings: [Building] = []
        var threshold = Self.threshold
        #if DEBUG
        threshold = Self.thresholdInTests ?? threshold
        #endif
        for b in 0..<seers.groupCount where seers.size(of: b) >= threshold {
            var s = Building()
            s.seerDistances = seers[b].map { candidates.entry(Int($0)).distance }.sorted()
            s.seerCentroidDistances = seers[b].map { candidates.centroidDistance(ofEntry: Int($0)) }.sorted()
            for o32 in claimants[b] {
                let o = Int(o32)
                guard let first = candidates.first(of: o) else { continue }
                s.claimantDistances.append(first.distance)
                s.claimantsInside += first.covers ? 1 : 0
                if let key = houseKeys[o] { s.claimantsByHouse[key, default: 0] += 1 }
                if streets[o] != 0 {
                    s.claimantsWithStreet += 1
                    s.claimantsByStreet[streets[o], default: (0, [])].count += 1
                    if numbers[o] >= 0 { s.claimantsByStreet[streets[o]]!.numbers.append(numbers[o]) }
                }
            }
            s.claimantDistances.sort()
            for street in s.claimantsByStreet.keys { s.claimantsByStreet[street]!.numbers.sort() }
            slot[b] = Int32(buildings.count)
            buildings.append(s)
        }
        self.slot = slot
        self.buildings = buildings
    }

    subscript(building b: Int) -> Building? {
        slot[b] < 0 ? nil : buildings[Int(slot[b])]
    }
}

extension CrowdedBuildings.Building {
    /// How many values lie strictly below `v`.
    static func below(_ v: Float, in sorted: [Float]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The least value once one copy of `own` (a member, the least or more) is left out; nil when none is left.
    static func leastOther(than own: Float, in sorted: [Float]) -> Float? {
        guard let least = sorted.first else { return nil }
        if least < own { return least }
        return sorted.count > 1 ? sorted[1] : nil
    }

    /// The least |number − n| over `numbers` (ascending) once one copy of `number` is left out when
    /// `member`; nil when none is left.
    static func nearestGap(to number: Int32, in numbers: [Int32], member: Bool) -> Int32? {
        func firstIndex(from lo: Int, where isPast: (Int32) -> Bool) -> Int {
            var lo = lo, hi = numbers.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if isPast(numbers[mid]) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
        let lo = firstIndex(from: 0) { $0 >= number }
        let end = firstIndex(from: lo) { $0 > number }
        if end - lo > (member ? 1 : 0) { return 0 }
        var gap: Int32?
        if lo > 0 { gap = number - numbers[lo - 1] }
        if end < numbers.count { gap = min(gap ?? .max, numbers[end] - number) }
        return gap
    }
}
