/// Confidence in [0.5, 1.0] for a link, from what makes a link doubtful: overlapping footprints,
/// distance, a near-equal alternative building, another address near the same spot.
///
/// A proximity link gets a raw score in [0, 1] from those signals, which a calibration table maps
/// to the share of such links that were correct on the synthetic city (seed 1, and checked on
/// seed 2; benchmarks/README.md). Scores whose links were right less than half the time map
/// below 0.5, and those links are not made.
enum ConfidenceModel {
    static func score(_ p: ProximityMatcher.Proposal, rivalDistance: Double?, options: LinkOptions) -> Double {
        switch p.method {
        case .exact:
            // Overlapping footprints: the smallest was taken, but the point is in several.
            return p.coveringCount == 1 ? 1.0 : 0.7
        case .proximity:
            if options.strategy == .naive { return 0.75 }
            return rounded(calibrated(rawScore(p, rivalDistance: rivalDistance, options: options)))
        }
    }

    /// Metres at which distance alone makes a link worthless. Fixed, not the run's reach, so that
    /// the calibration holds whatever `--max-distance` is.
    static let distanceScale = 40.0

    /// 1 for a point at the wall with no alternative and no rival, falling towards 0 with distance
    /// (squared, relative to `distanceScale`), a near-equal alternative building and a rival address.
    static func rawScore(_ p: ProximityMatcher.Proposal, rivalDistance: Double?, options: LinkOptions) -> Double {
        let closeness = max(0, 1 - p.distance / distanceScale)
        var separation = 1.0
        if let alt = p.alternativeDistance {
            separation = min(1, max(0, (alt - p.distance) / (alt + 1)))
        }
        var contest = 1.0
        if let r = rivalDistance, p.distance > 0 {
            contest = min(1, max(0, r / p.distance - options.ownershipRatio))
        }
        return closeness * closeness * (0.3 + 0.7 * separation.squareRoot()) * (0.5 + 0.5 * contest)
    }

    /// Raw score → observed accuracy (piecewise linear, a little under what was measured).
    static let calibration: [(score: Double, confidence: Double)] = [
        (0.00, 0.00), (0.20, 0.20), (0.25, 0.50), (0.30, 0.70), (0.35, 0.80), (0.40, 0.87),
        (0.47, 0.90), (0.55, 0.95), (0.65, 0.97), (0.75, 0.98), (1.00, 0.99),
    ]

    static func calibrated(_ s: Double) -> Double {
        let table = calibration
        guard s > table[0].score else { return table[0].confidence }
        for k in 1..<table.count where s <= table[k].score {
            let (s0, c0) = table[k - 1], (s1, c1) = table[k]
            return c0 + (c1 - c0) * (s - s0) / (s1 - s0)
        }
        return table[table.count - 1].confidence
    }

    static func rounded(_ c: Double) -> Double { (min(1, max(0, c)) * 1000).rounded() / 1000 }
}
