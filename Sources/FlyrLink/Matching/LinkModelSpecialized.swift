extension LinkModel {
    /// The model specialised to features whose value is the same for every candidate (`values`): their
    /// splits are taken once; every candidate reaches the same leaves, so probabilities are the same to the bit.
    func specialized(_ values: [Int: Double]) -> LinkModel {
        LinkModel(first: first.specialized(values), second: second?.specialized(values), calibration: calibration)
    }

    /// `specialized` to the run's two measures as `evidence` measured them (where the decisions and the
    /// evidence file both start).
    func specialized(forRunOf evidence: borrowing LinkEvidence) -> LinkModel {
        specialized([CandidateFeature.runShareInside.rawValue: evidence.shareInside, CandidateFeature.runMedianNearest.rawValue: evidence.medianNearest])
    }
}
