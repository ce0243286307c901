extension LinkModel {
    /// The same model for one run, with the splits on the run's own measures (`run_share_inside`,
    /// `run_median_nearest_m`: the same for every candidate) taken once here rather than at every
    /// candidate: a fifth of the trees' splits, and 409 → about 340 steps per candidate at 1M.
    /// Every candidate reaches the same leaves, so the probabilities are the same to the bit.
    /// (The second stage's rows begin with the first stage's features, so the indices are the same.)
    func fixing(_ values: [Int: Double]) -> LinkModel {
        LinkModel(first: first.fixing(values), second: second?.fixing(values), calibration: calibration)
    }

    /// `fixing` the run's two measures to the values `evidence` measured (what every scoring of a
    /// run's candidates starts from: the decisions and the evidence file alike).
    func fixing(runOf evidence: borrowing LinkEvidence) -> LinkModel {
        fixing([CandidateFeature.runShareInside.rawValue: evidence.shareInside, CandidateFeature.runMedianNearest.rawValue: evidence.medianNearest])
    }
}
