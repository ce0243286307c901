extension LinkModel {
    /// The model for one run, with splits on the run's own measures (equal for every candidate) taken
    /// once; every candidate reaches the same leaves, so probabilities are the same to the bit.
    func fixing(_ values: [Int: Double]) -> LinkModel {
        LinkModel(first: first.fixing(values), second: second?.fixing(values), calibration: calibration)
    }

    /// `fixing` the run's two measures to those `evidence` measured (where the decisions and the
    /// evidence file both start).
    func fixing(runOf evidence: borrowing LinkEvidence) -> LinkModel {
        fixing([CandidateFeature.runShareInside.rawValue: evidence.shareInside, CandidateFeature.runMedianNearest.rawValue: evidence.medianNearest])
    }
}
