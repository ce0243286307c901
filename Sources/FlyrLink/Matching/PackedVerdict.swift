/// A `LinkDecision.Verdict` in 4 bytes, held for every address until the links are made. The
/// confidence is kept as thousandths (`LinkDecision.rounded`), which give back the same Double.
struct PackedVerdict: Sendable {
    private let rankByte: UInt8
    /// 0 linked, else 1 + the unlinked reason's ordinal.
    private let reasonByte: UInt8
    private let thousandths: UInt16

    init(_ v: LinkDecision.Verdict) {
        let t = (v.confidence * 1000).rounded()
        precondition(v.rank < CandidateTable.limit && t >= 0 && t <= 1000 && t / 1000 == v.confidence,
                     "a verdict's confidence is rounded to thousandths")
        rankByte = UInt8(v.rank)
        reasonByte = v.unlinked.map { UInt8(1 + $0.ordinal) } ?? 0
        thousandths = UInt16(t)
    }

    var rank: Int { Int(rankByte) }
    var confidence: Double { Double(thousandths) / 1000 }
    var unlinked: UnlinkedReason? { reasonByte == 0 ? nil : .init(ordinal: Int(reasonByte) - 1) }
}
