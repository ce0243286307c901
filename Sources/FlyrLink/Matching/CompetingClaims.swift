/// The second stage's evidence: how strongly other addresses claim each candidate, by first-stage
/// probabilities; `fit.py` (`competing_claims`) computes the same columns to fit that stage.
struct CompetingClaims: Sendable {
    static let names = ["strongest_other_claim", "alternative_strongest_other_claim"]
    /// The second stage's row: the first stage's features, then these.
    static let secondStageNames = CandidateFeatures.names + names

    /// Each entry's first-stage probability in steps of 1/65535 (`quantized`), 2 bytes a candidate;
    /// the second stage is fitted on claims made from the same steps, so its thresholds fall among them.
    private let firstProbability: [UInt16]
    /// Per building: the highest first-stage probability an address gives it, that address (-1:
    /// none), and the next highest from another address, in the same steps.
    private let strongest: [UInt16]
    private let strongestBy: [Int32]
    private let runnerUp: [UInt16]

    /// A probability in steps of 1/65535, the nearest step (half-way: the even one, as NumPy's
    /// `round`, which `fit.py` uses to make the same claims).
    static func quantized(_ p: Double) -> UInt16 { UInt16((p * 65535).rounded(.toNearestOrEven)) }
    static func probability(_ q: UInt16) -> Double { Double(q) / 65535 }

    /// Scores every candidate with `model`'s first stage, on the workers (each address's entries
    /// written by the worker that scores it: the same for any thread count).
    init(_ evidence: borrowing LinkEvidence, model: LinkModel, pool: WorkerPool) {
        let e = copy evidence  // (references to its arrays, for the workers; let go on return)
        let addressCount = e.candidates.addressCount, chunkSize = 2048
        var first = [UInt16](repeating: 0, count: e.candidates.entryCount)
        first.withUnsafeMutableBufferPointer { out in
            let slots = UncheckedBox(out)
            pool.forEachChunk((addressCount + chunkSize - 1) / chunkSize, workerState: { LinkDecision.Scratch() }) { _, scratch, c in
                for a in c * chunkSize..<min((c + 1) * chunkSize, addressCount) {
                    let entries = e.candidates.entries(of: a)
                    guard !entries.isEmpty else { continue }
                    LinkDecision.firstStage(of: a, evidence: e, model: model, scratch: &scratch)
                    for (k, entry) in entries.enumerated() { slots.value[entry] = Self.quantized(scratch.probabilities[k]) }
                }
            }
        }
        var strongest = [UInt16](repeating: 0, count: e.candidates.buildingCount)
        var strongestBy = [Int32](repeating: -1, count: e.candidates.buildingCount)
        var runnerUp = [UInt16](repeating: 0, count: e.candidates.buildingCount)
        for a in 0..<addressCount {
            for entry in e.candidates.entries(of: a) {
                let b = Int(e.candidates.entry(entry).building), p = first[entry]
                if p > strongest[b] || strongestBy[b] < 0 {
                    runnerUp[b] = strongest[b]
                    strongest[b] = p
                    strongestBy[b] = Int32(a)
                } else if p > runnerUp[b] {
                    runnerUp[b] = p
                }
            }
        }
        firstProbability = first
        self.strongest = strongest
        self.strongestBy = strongestBy
        self.runnerUp = runnerUp
    }

    /// The highest first-stage probability an address other than `a` gives building `b`.
    private func strongestOther(_ b: Int, than a: Int) -> Double {
        Self.probability(Int(strongestBy[b]) == a ? runnerUp[b] : strongest[b])
    }

    /// Writes address `a`'s candidates' second-stage rows into `wide`: row k is `rows`' row k
    /// (`CandidateFeatures.names.count` wide), then its claims.
    func fill(_ wide: inout [Double], rows: [Double], address a: Int, evidence e: LinkEvidence) {
        let entries = e.candidates.entries(of: a)
        let narrow = CandidateFeatures.names.count, width = Self.secondStageNames.count
        // The two likeliest candidates by the first stage: each candidate's alternative is the
        // likeliest of the others.
        var best = -1, next = -1
        for k in 0..<entries.count {
            let p = firstProbability[entries.lowerBound + k]
            if best < 0 || p > firstProbability[entries.lowerBound + best] {
                next = best
                best = k
            } else if next < 0 || p > firstProbability[entries.lowerBound + next] {
                next = k
            }
        }
        for k in 0..<entries.count {
            for f in 0..<narrow { wide[k * width + f] = rows[k * narrow + f] }
            wide[k * width + narrow] = strongestOther(Int(e.candidates.entry(entries.lowerBound + k).building), than: a)
            let alternative = k == best ? next : best
            wide[k * width + narrow + 1] = alternative < 0 ? 1
                : strongestOther(Int(e.candidates.entry(entries.lowerBound + alternative).building), than: a)
        }
    }

    /// Candidate `k` of address `a`'s first-stage probability.
    func firstProbability(address a: Int, rank k: Int, evidence e: LinkEvidence) -> Double {
        Self.probability(firstProbability[e.candidates.entries(of: a).lowerBound + k])
    }
}
