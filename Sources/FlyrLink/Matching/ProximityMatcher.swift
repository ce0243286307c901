/// The baseline matcher (`--matcher naive`): containment, then the nearest footprint within reach,
/// kept to score `LinkDecision` against; its confidences are fixed values, not probabilities.
enum ProximityMatcher {
    /// 40 bytes, as one per address is held through the decisions: building as 32-bit, no alternative
    /// as NaN, nearest point and covering count sharing a place (a proposal has only one).
    struct Proposal: Sendable {
        @Int32Backed var building: Int
        let method: MatchMethod
        var distance: Double
        /// A proximity proposal's nearest point; an exact one's covering count, in x.
        private var storedPoint: Point2
        private var storedAlternative: Double

        init(building: Int, method: MatchMethod, distance: Double, nearestPoint: Point2, alternativeDistance: Double?,
             coveringCount: Int) {
            self.building = building
            self.method = method
            self.distance = distance
            storedPoint = method == .exact ? Point2(x: Double(coveringCount), y: 0) : nearestPoint
            storedAlternative = alternativeDistance ?? .nan
        }

        /// The point of the building nearest to the address; the origin for an exact proposal
        /// (the address itself is on the building).
        var nearestPoint: Point2 { method == .exact ? Point2(x: 0, y: 0) : storedPoint }

        /// Distance to the next main building that would have been the alternative.
        var alternativeDistance: Double? { storedAlternative.isNaN ? nil : storedAlternative }

        /// How many footprints cover the address (0 for a proximity proposal).
        var coveringCount: Int { method == .exact ? Int(storedPoint.x) : 0 }
    }

    /// An address's outcome in one double: its confidence, or why it stays unlinked as a negative
    /// code (an unlinked address's confidence is never read).
    struct Verdict: Sendable {
        private let stored: Double

        init(confidence: Double, unlinked: UnlinkedReason?) {
            guard let unlinked else {
                precondition(confidence >= 0, "a confidence is not negative")
                stored = confidence
                return
            }
            stored = -1 - Double(unlinked.ordinal)
        }

        var unlinked: UnlinkedReason? { stored < 0 ? UnlinkedReason(ordinal: Int(-1 - stored)) : nil }

        /// Of a linked address.
        var confidence: Double { stored }
    }

    /// The links made (in address order) and each address's reason when it has none. `proposals`
    /// as CandidateSearch.proposals gives them (and StickyLinks changes them), consumed.
    static func decide(proposals: consuming [Proposal?], pool: WorkerPool = WorkerPool(threads: 1)) -> (links: [Link], unlinked: [UnlinkedReason?]) {
        var owned = consume proposals  // (held once: its pages are dropped below)
        let verdicts = verdicts(owned, pool: pool)
        // The links, sized exactly, in address order on one thread: the proposals' pages are handed
        // back behind it (its own pages: mutable access copies first if a caller still shares them).
        let linkedCount = verdicts.reduce(0) { $1.unlinked == nil ? $0 + 1 : $0 }
        let links = owned.withUnsafeMutableBufferPointer { buffer in
            let proposals = UnsafeBufferPointer(buffer)
            return [Link](unsafeUninitializedCapacity: linkedCount) { out, made in
                made = 0
                for (a, proposal) in proposals.enumerated() {
                    if verdicts[a].unlinked == nil, let proposal {
                        out.initializeElement(at: made, to: Link(addressIndex: a, buildingIndex: proposal.building, method: proposal.method,
                                                                 confidence: verdicts[a].confidence, distance: proposal.distance))
                        made += 1
                    }
                    if a & 0xFFFF == 0xFFFF { ConsumedPages.drop(proposals, below: a + 1) }  // not read again
                }
            }
        }
        return (links, verdicts.map(\.unlinked))
    }

    /// Each address's verdict, on all workers.
    private static func verdicts(_ decided: [Proposal?], pool: WorkerPool) -> [Verdict] {
        pool.map(decided.count, chunkSize: 4096) { _, a -> Verdict in
            guard let proposal = decided[a] else { return Verdict(confidence: 0, unlinked: .nothingWithinReach) }
            switch proposal.method {
            case .exact: return Verdict(confidence: proposal.coveringCount == 1 ? 1.0 : 0.7, unlinked: nil)
            case .proximity: return Verdict(confidence: 0.75, unlinked: nil)
            }
        }
    }

    /// The naive choice: the smallest covering footprint, else the nearest one; the nearest other
    /// main building is kept as the alternative (sticky links read it).
    static func propose(_ s: AddressSurroundings, accessory: [Bool]) -> Proposal? {
        if let b = s.covering.first {
            return Proposal(building: b, method: .exact, distance: 0, nearestPoint: .init(x: 0, y: 0),
                            alternativeDistance: nil, coveringCount: s.covering.count)
        }
        guard let chosen = s.nearby.first else { return nil }
        let alternative = s.nearby.first { $0.building != chosen.building && !accessory[$0.building] }
        return Proposal(building: chosen.building, method: .proximity, distance: chosen.distance,
                        nearestPoint: chosen.nearestPoint, alternativeDistance: alternative?.distance, coveringCount: 0)
    }

}
