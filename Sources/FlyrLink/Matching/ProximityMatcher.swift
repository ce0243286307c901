/// Decides each address's building from its surroundings: containment first; otherwise the nearest
/// main building within reach (accessories yield to it); then drops proximity links onto a building
/// that clearly is another address's house. Confidence reflects how unambiguous the link is.
enum ProximityMatcher {
    /// Why an address stayed unlinked, for the report.
    enum UnlinkedReason: String, Sendable, CaseIterable {
        case nothingWithinReach = "no_building_within_max_distance"
        case ownedByAnotherAddress = "nearest_building_belongs_to_another_address"
        case lowConfidence = "confidence_below_0.5"

        /// The reason's place among the cases, for storing it in a number (a switch: `allCases`
        /// makes an array each time it is named, and this is asked per unlinked address).
        var ordinal: Int {
            switch self {
            case .nothingWithinReach: 0
            case .ownedByAnotherAddress: 1
            case .lowConfidence: 2
            }
        }

        init(ordinal: Int) {
            switch ordinal {
            case 0: self = .nothingWithinReach
            case 1: self = .ownedByAnotherAddress
            case 2: self = .lowConfidence
            default: preconditionFailure("no unlinked reason \(ordinal)")
            }
        }
    }

    /// Stored in 48 bytes, not 64 (one per address, all held while the decisions are made): the
    /// building and covering count as 32-bit, no alternative as NaN.
    struct Proposal: Sendable {
        @Int32Backed var building: Int
        private var storedCoveringCount: Int32
        var distance: Double
        var nearestPoint: Point2
        private var storedAlternative: Double
        var method: MatchMethod

        init(building: Int, method: MatchMethod, distance: Double, nearestPoint: Point2, alternativeDistance: Double?,
             coveringCount: Int) {
            self.building = building
            storedCoveringCount = Int32(clamping: coveringCount)
            self.distance = distance
            self.nearestPoint = nearestPoint
            storedAlternative = alternativeDistance ?? .nan
            self.method = method
        }

        /// Distance to the next main building that would have been the alternative.
        var alternativeDistance: Double? { storedAlternative.isNaN ? nil : storedAlternative }

        var coveringCount: Int { Int(storedCoveringCount) }
    }

    /// What became of an address's proposal: its confidence, or why it stays unlinked. In one
    /// double (an unlinked address's confidence is never read: its reason is kept instead, as a
    /// negative code), 8 bytes instead of 16 per address while the decisions are made.
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

    /// The links made (in address order) and each address's reason when it has none.
    /// `previous`: each address's building in the previous snapshot, for sticky links (nil: none).
    /// `proposals` and `surroundings` as CandidateSearch.proposals gives them (surroundings of the
    /// addresses with a previous building); the proposals are consumed (sticky links change them in place).
    static func decide(_ scene: MetricScene, proposals: consuming [Proposal?], surroundings: [Int: AddressSurroundings], accessory: [Bool],
                       options: LinkOptions, previous: [Int?]? = nil,
                       pool: WorkerPool = WorkerPool(threads: 1)) -> (links: [Link], unlinked: [UnlinkedReason?]) {
        var proposals = proposals
        if let previous {
            StickyLinks.apply(&proposals, surroundings: surroundings, previous: previous, accessory: accessory, options: options)
        }

        // Who claims each building, for the ownership rule: claimant addresses grouped by building,
        // ascending within each.
        let claimants = IndexGroups(count: proposals.count, keyCount: scene.footprints.count) { proposals[$0]?.building }

        // Each address's verdict reads the proposals and the scene only: on all workers.
        let decided = proposals
        let verdicts = pool.map(decided.count, chunkSize: 4096) { _, a -> Verdict in
            guard let proposal = decided[a] else { return Verdict(confidence: 0, unlinked: .nothingWithinReach) }
            var rival: Double?
            if proposal.method == .proximity, options.strategy == .flyr {
                let rivals = OwnershipRule.rivals(of: a, claimants: claimants[proposal.building], scene: scene)
                rival = rivals.map { scene.addressPoints[$0].distance(to: proposal.nearestPoint) }.min()
                if OwnershipRule.belongsToAnother(a, proposal, rivals: rivals, proposals: decided, scene: scene, options: options) {
                    return Verdict(confidence: 0, unlinked: .ownedByAnotherAddress)
                }
            }
            let confidence = ConfidenceModel.score(proposal, rivalDistance: rival, options: options)
            return Verdict(confidence: confidence, unlinked: confidence >= 0.5 ? nil : .lowConfidence)
        }
        // The links, sized exactly (no doubling slack), from the proposals and their verdicts.
        let links = pool.compactMap(verdicts.count, where: { verdicts[$0].unlinked == nil }) { a in
            let proposal = decided[a]!
            return Link(addressIndex: a, buildingIndex: proposal.building, method: proposal.method,
                        confidence: verdicts[a].confidence, distance: proposal.distance)
        }
        return (links, verdicts.map(\.unlinked))
    }

    static func propose(_ s: AddressSurroundings, accessory: [Bool], options: LinkOptions) -> Proposal? {
        if let b = s.covering.first {
            return Proposal(building: b, method: .exact, distance: 0, nearestPoint: .init(x: 0, y: 0),
                            alternativeDistance: nil, coveringCount: s.covering.count)
        }
        guard let nearest = s.nearby.first else { return nil }
        var chosen = nearest
        if options.strategy == .flyr, accessory[nearest.building],
           let main = s.nearby.first(where: { !accessory[$0.building] }),
           main.distance <= nearest.distance + options.accessoryRadius {
            chosen = main
        }
        let alternative = s.nearby.first { $0.building != chosen.building && !accessory[$0.building] }
        return Proposal(building: chosen.building, method: .proximity, distance: chosen.distance,
                        nearestPoint: chosen.nearestPoint, alternativeDistance: alternative?.distance, coveringCount: 0)
    }

}
