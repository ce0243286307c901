extension LinkModel {
    /// The same model for one run, with the splits on the run's own measures (`run_share_inside`,
    /// `run_median_nearest_m`: the same for every candidate) taken once here rather than at every
    /// candidate: a fifth of the trees' splits, and 409 → about 340 steps per candidate at 1M.
    /// Every candidate reaches the same leaves, so the probabilities are the same to the bit.
    func fixing(_ values: [Int: Double]) -> LinkModel {
        LinkModel(baseline: baseline, trees: trees, calibration: calibration, fixed: values)
    }
}
