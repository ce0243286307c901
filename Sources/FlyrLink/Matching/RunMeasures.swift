import Foundation

/// The whole-run measures the decision reads (point placement, numbering conventions), kept as
/// exact sums of per-address parts so that tiles' parts add up, in any order, to one run's.
public struct RunMeasures: Sendable, Equatable, Codable {
    /// A street's (or the run's) votes: sum of plain votes (odd on the left as numbers rise: +1) and
    /// of their sizes, in units of 2⁻³⁰, so that 2³³ votes fit in 64 bits.
    public struct Votes: Sendable, Equatable, Codable {
        public var agree: Int64 = 0
        public var weight: Int64 = 0

        static let unit = 1_073_741_824.0  // 2³⁰
        /// How many full votes the sums hold.
        static let capacity = Double(Int64.max) / unit

        mutating func add(_ vote: Double) {
            let v = Int64((vote * Self.unit).rounded())
            agree += v
            weight += abs(v)
        }

        mutating func add(_ other: Votes) {
            agree += other.agree
            weight += other.weight
        }

        var weightInVotes: Double { Double(weight) / Self.unit }
        var ratio: Double { Double(agree) / Double(weight) }
    }

    /// Addresses counted (with a candidate or not), and those inside a footprint.
    public var addresses = 0
    public var inside = 0
    /// Counted addresses per nearest-footprint distance in centimetres (rounding keeps the order, so
    /// the median of rounded distances is the rounded median).
    public var nearestCentimetres: [Int: Int] = [:]
    public var votes = Votes()
    /// Keyed by the street's hash (`HouseNumber`'s); in a file, as 16 hexadecimal digits.
    public var streets: [UInt64: Votes] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey {
        case addresses, inside, nearestCentimetres = "nearest_centimetres", votes, streets
    }

    /// The histogram as pairs in ascending order of distance (a dictionary's order is not fixed:
    /// the same measures must give the same bytes).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(addresses, forKey: .addresses)
        try c.encode(inside, forKey: .inside)
        try c.encode(nearestCentimetres.keys.sorted().map { [$0, nearestCentimetres[$0]!] }, forKey: .nearestCentimetres)
        try c.encode(votes, forKey: .votes)
        try c.encode(Dictionary(uniqueKeysWithValues: streets.map { (Self.key($0.key), $0.value) }), forKey: .streets)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        addresses = try c.decode(Int.self, forKey: .addresses)
        inside = try c.decode(Int.self, forKey: .inside)
        for pair in try c.decode([[Int]].self, forKey: .nearestCentimetres) {
            guard pair.count == 2 else { throw DecodingError.dataCorruptedError(forKey: .nearestCentimetres, in: c, debugDescription: "a pair") }
            nearestCentimetres[pair[0], default: 0] += pair[1]
        }
        votes = try c.decode(Votes.self, forKey: .votes)
        for (key, votes) in try c.decode([String: Votes].self, forKey: .streets) {
            guard let street = UInt64(key, radix: 16) else {
                throw DecodingError.dataCorruptedError(forKey: .streets, in: c, debugDescription: "a street's key is 16 hexadecimal digits, not \(key)")
            }
            streets[street, default: Votes()].add(votes)
        }
    }

    /// Address `a` counted: where its nearest candidate is (none when it has none).
    mutating func addPlacement(covers: Bool?, distance: Float) {
        addresses += 1
        guard let covers else { return }
        if covers { inside += 1 }
        nearestCentimetres[Int((Double(distance) * 100).rounded()), default: 0] += 1
    }

    /// A plain vote (non-zero) of an address on `street` (0: none).
    mutating func addVote(_ vote: Double, street: UInt64) {
        votes.add(vote)
        streets[street, default: Votes()].add(vote)
    }

    /// The sums of both.
    public mutating func add(_ other: RunMeasures) {
        addresses += other.addresses
        inside += other.inside
        for (k, n) in other.nearestCentimetres { nearestCentimetres[k, default: 0] += n }
        votes.add(other.votes)
        for (k, v) in other.streets { streets[k, default: Votes()].add(v) }
    }

    static func key(_ street: UInt64) -> String {
        let hex = String(street, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The share of addresses inside a footprint, to 0.001.
    var shareInside: Double {
        addresses == 0 ? 0 : (Double(inside) / Double(addresses) * 1000).rounded() / 1000
    }

    /// The median distance to the nearest footprint of the addresses that have one within reach
    /// (the upper one of an even count), to the centimetre; `reach` when none has.
    func medianNearest(reach: Double) -> Double {
        let count = nearestCentimetres.values.reduce(0, +)
        guard count > 0 else { return reach }
        var below = 0
        for k in nearestCentimetres.keys.sorted() {
            below += nearestCentimetres[k]!
            if below > count / 2 { return Double(k) / 100 }
        }
        preconditionFailure("unreachable: the counts add up to \(count)")
    }

    /// The run's numbering convention (`StreetSides.oddOnLeft`): 0 with fewer than 20 plain votes.
    var oddOnLeft: Double {
        votes.weightInVotes < 20 ? 0 : (votes.ratio * 1000).rounded() / 1000
    }

    /// A street's own convention: 0 with fewer than 3 plain votes.
    func oddOnLeft(street: UInt64) -> Float {
        guard street != 0, let s = streets[street], s.weightInVotes >= 3 else { return 0 }
        return Float(s.ratio)
    }
}
