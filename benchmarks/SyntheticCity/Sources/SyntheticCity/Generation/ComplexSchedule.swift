import Foundation

/// When a dense city's complexes come and how many units each has: one per 200,000
/// buildings (at least one), each due at a point drawn within the first 80% of its own
/// share of the city, with 1,000–50,000 units (log-uniform). Drawn from a stream of its
/// own, so the schedule depends on seed and size only.
struct ComplexSchedule {
    static let buildingsPerComplex = 200_000
    static let units = 1_000...50_000
    /// A complex never has more units than half the city's buildings: a small test city stays small.
    static func unitCap(target: Int) -> Int { max(2, target / 2) }

    private var due: [(afterBuildings: Int, units: Int)] = []

    init(target: Int, seed: UInt64) {
        guard target > 0 else { return }
        var rng = SeededGenerator(seed: seed ^ 0x636F_6D70_6C65_7865)  // "complexe"
        let count = (target + Self.buildingsPerComplex - 1) / Self.buildingsPerComplex
        let span = Double(target) / Double(count)
        let logLow = log(Double(Self.units.lowerBound)), logHigh = log(Double(Self.units.upperBound))
        for i in 0..<count {
            let after = Int(Double(i) * span + 0.8 * span * rng.unit())
            let drawn = Int(exp(rng.uniform(logLow, logHigh)).rounded())
            due.append((after, min(drawn, Self.unitCap(target: target))))
        }
    }

    /// The units of the next complex if it is due once `buildings` buildings exist.
    func next(buildings: Int) -> Int? {
        guard let first = due.first, buildings >= first.afterBuildings else { return nil }
        return first.units
    }

    mutating func placed() { due.removeFirst() }
}
