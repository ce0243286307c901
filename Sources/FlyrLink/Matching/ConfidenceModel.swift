/// Confidence in [0.5, 1.0] for a link, from what makes a link doubtful: overlapping footprints,
/// distance, a near-equal alternative building, another address close to the same spot.
/// The constants come from the synthetic-city evaluation (README: calibration table).
enum ConfidenceModel {
    static func score(_ p: ProximityMatcher.Proposal, rivalDistance: Double?, options: LinkOptions) -> Double {
        switch p.method {
        case .exact:
            return p.coveringCount == 1 ? 1.0 : 0.7
        case .proximity:
            if options.strategy == .naive { return 0.75 }
            let reach = options.maxDistance
            let closeness = max(0, 1 - p.distance / reach)
            var separation = 1.0
            if let alt = p.alternativeDistance {
                separation = min(1, max(0, (alt - p.distance) / (alt + 1)))
            }
            var contest = 1.0
            if let r = rivalDistance, p.distance > 0 {
                contest = min(1, max(0, r / p.distance - options.ownershipRatio))
            }
            let s = closeness * closeness * (0.3 + 0.7 * separation.squareRoot()) * (0.5 + 0.5 * contest)
            return rounded(0.5 + 0.49 * s)
        }
    }

    static func rounded(_ c: Double) -> Double { (min(1, max(0, c)) * 1000).rounded() / 1000 }
}
