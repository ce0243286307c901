/// Decides each address's building: candidates scored by the link model, the likeliest linked when
/// its calibrated confidence is at least 0.5. Rules such as "an accessory yields" are features, not vetoes.
package enum LinkDecision {
    /// Links below this confidence are not made: they were wrong more often than right.
    static let minimumConfidence = 0.5

    /// One address's outcome: the chosen candidate (its rank in the address's list) and confidence,
    /// or why there is no link.
    struct Verdict: Sendable {
        var rank: Int
        var confidence: Double
        var unlinked: UnlinkedReason?
    }

    /// `previous[a]`: `a`'s building in the previous snapshot, kept when nearly as good (`keepsPrevious`).
    /// `evidence` is consumed: all but the candidates is freed before the links are made.
    package static func decide(_ evidence: consuming LinkEvidence, model: LinkModel, options: LinkOptions, previous: [Int?]?,
                       pool: WorkerPool) -> (links: [Link], unlinked: [UnlinkedReason?]) {
        let model = model.specialized(forRunOf: evidence)
        // Two passes when the model has a second stage: every candidate by the first, then each
        // address again beside the others' claims on its candidates.
        let claims = model.second == nil ? nil : CompetingClaims(evidence, model: model, pool: pool)
        let verdicts = pool.map(evidence.candidates.addressCount, chunkSize: 2048, workerState: { Scratch() }) { _, scratch, a in
            PackedVerdict(verdict(of: a, evidence: evidence, model: model, claims: claims, options: options, previous: previous?[a],
                                  scratch: &scratch))
        }
        let candidates = evidence.candidates
        _ = consume evidence
        _ = consume claims
        var links: [Link] = []
        links.reserveCapacity(verdicts.reduce(0) { $1.unlinked == nil ? $0 + 1 : $0 })
        for (a, v) in verdicts.enumerated() where v.unlinked == nil {
            let c = candidates.entry(candidates.entries(of: a).lowerBound + v.rank)
            links.append(Link(addressIndex: a, buildingIndex: Int(c.building), method: c.covers ? .exact : .proximity,
                              confidence: v.confidence, distance: Double(c.distance)))
        }
        return (links, verdicts.map(\.unlinked))
    }

    /// A worker's buffers, reused from address to address: an address's candidates' features (a
    /// row each), their second-stage rows, and their probabilities.
    struct Scratch {
        var rows = [Double](repeating: 0, count: CandidateFeatures.names.count * CandidateTable.limit)
        var wideRows = [Double](repeating: 0, count: CompetingClaims.secondStageNames.count * CandidateTable.limit)
        var probabilities = [Double](repeating: 0, count: CandidateTable.limit)
    }

    /// Address a's candidates' features into `scratch.rows` and their first-stage probabilities
    /// into `scratch.probabilities`.
    static func firstStage(of a: Int, evidence: LinkEvidence, model: LinkModel, scratch: inout Scratch) {
        let count = evidence.candidates.entries(of: a).count
        CandidateFeatures.fill(&scratch.rows, address: a, evidence: evidence)
        score(scratch.rows, count: count, with: model.first, into: &scratch.probabilities)
    }

    private static func score(_ rows: [Double], count: Int, with stage: TreeEnsemble, into probabilities: inout [Double]) {
        rows.withUnsafeBufferPointer { rows in
            probabilities.withUnsafeMutableBufferPointer { p in
                stage.probabilities(UnsafeBufferPointer(rebasing: rows[0..<count * stage.width]), count: count, into: p)
            }
        }
    }

    /// Address a's candidates' probabilities, from the second stage when there is one, into
    /// `scratch.probabilities` (its features are left in `scratch.rows`).
    static func probabilities(of a: Int, evidence: LinkEvidence, model: LinkModel, claims: CompetingClaims?, scratch: inout Scratch) {
        precondition((model.second == nil) == (claims == nil), "a second stage reads the claims, and only it")
        guard let second = model.second, let claims else { return firstStage(of: a, evidence: evidence, model: model, scratch: &scratch) }
        // (The first stage's probabilities are the claims' already: only the features are made again.)
        CandidateFeatures.fill(&scratch.rows, address: a, evidence: evidence)
        claims.fill(&scratch.wideRows, rows: scratch.rows, address: a, evidence: evidence)
        score(scratch.wideRows, count: evidence.candidates.entries(of: a).count, with: second, into: &scratch.probabilities)
    }

    static func verdict(of a: Int, evidence: LinkEvidence, model: LinkModel, claims: CompetingClaims?, options: LinkOptions, previous: Int?,
                        scratch: inout Scratch) -> Verdict {
        // (Entries by index, not a slice: no reference counted per address.)
        let list = evidence.candidates.entries(of: a)
        guard !list.isEmpty else { return Verdict(rank: 0, confidence: 0, unlinked: .nothingWithinReach) }
        let width = CandidateFeatures.names.count
        probabilities(of: a, evidence: evidence, model: model, claims: claims, scratch: &scratch)
        let probabilities = scratch.probabilities
        var best = 0
        for rank in 1..<list.count where probabilities[rank] > probabilities[best] { best = rank }  // ties: the nearer
        let confidence = rounded(model.confidence(probabilities[best], shareInside: evidence.shareInside))
        // Snapshots: a linked address stays on its previous building when that one is nearly as good
        // (no flapping between refreshes); the confidence is then the previous building's own.
        if confidence >= minimumConfidence, let previous, let kept = keepsPrevious(previous, entries: list, candidates: evidence.candidates, best: best, options: options) {
            return Verdict(rank: kept, confidence: rounded(model.confidence(probabilities[kept], shareInside: evidence.shareInside)), unlinked: nil)
        }
        guard confidence >= minimumConfidence else {
            // In words: the likeliest building is nearer to another address that sees it first,
            // or it is simply too doubtful (too far, too many alike).
            let owned = scratch.rows[best * width + CandidateFeature.claimantsCloser.rawValue] > 0
            return Verdict(rank: best, confidence: confidence, unlinked: owned ? .ownedByAnotherAddress : .lowConfidence)
        }
        return Verdict(rank: best, confidence: confidence, unlinked: nil)
    }

    /// The previous building's rank when it is still a candidate, covers the point if the new
    /// choice does, and otherwise is at most `stickyMargin` metres farther than the new choice.
    private static func keepsPrevious(_ previous: Int, entries: Range<Int>, candidates: CandidateTable, best: Int, options: LinkOptions) -> Int? {
        guard let rank = entries.firstIndex(where: { Int(candidates.entry($0).building) == previous }).map({ $0 - entries.lowerBound }),
              rank != best else { return nil }
        let old = candidates.entry(entries.lowerBound + rank), new = candidates.entry(entries.lowerBound + best)
        if new.covers { return old.covers ? rank : nil }
        return Double(old.distance) <= Double(new.distance) + options.stickyMargin ? rank : nil
    }

    static func rounded(_ c: Double) -> Double { (min(1, max(0, c)) * 1000).rounded() / 1000 }
}
