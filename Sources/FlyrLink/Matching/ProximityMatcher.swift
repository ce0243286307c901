/// Decides each address's building from its surroundings: containment first; otherwise the nearest
/// main building within reach (accessories yield to it); then drops proximity links onto a building
/// that clearly is another address's house. Confidence reflects how unambiguous the link is.
enum ProximityMatcher {
    /// Why an address stayed unlinked, for the report.
    enum UnlinkedReason: String, Sendable, CaseIterable {
        case nothingWithinReach = "no_building_within_max_distance"
        case ownedByAnotherAddress = "nearest_building_belongs_to_another_address"
        case lowConfidence = "confidence_below_0.5"
    }

    struct Proposal: Sendable {
        var building: Int
        var method: MatchMethod
        var distance: Double
        var nearestPoint: Point2
        /// Distance to the next main building that would have been the alternative.
        var alternativeDistance: Double?
        var coveringCount: Int
    }

    struct Decision: Sendable {
        var link: Link?
        var unlinked: UnlinkedReason?
    }

    /// `previous`: each address's building in the previous snapshot, for sticky links (nil: none).
    /// `proposals` and `surroundings` as CandidateSearch.proposals gives them (surroundings of the
    /// addresses with a previous building).
    static func decide(_ scene: MetricScene, proposals: [Proposal?], surroundings: [Int: AddressSurroundings], accessory: [Bool],
                       options: LinkOptions, previous: [Int?]? = nil, pool: WorkerPool = WorkerPool(threads: 1)) -> [Decision] {
        var proposals = proposals
        if let previous {
            StickyLinks.apply(&proposals, surroundings: surroundings, previous: previous, accessory: accessory, options: options)
        }

        // Who claims each building, for the ownership rule: claimant addresses grouped by building
        // (offsets per building into one array, addresses ascending within each).
        var start = [Int](repeating: 0, count: scene.footprints.count + 1)
        for p in proposals { if let p { start[p.building + 1] += 1 } }
        for b in 0..<scene.footprints.count { start[b + 1] += start[b] }
        var fill = start
        var claimantList = [Int](repeating: 0, count: start[scene.footprints.count])
        for (a, p) in proposals.enumerated() {
            if let p { claimantList[fill[p.building]] = a; fill[p.building] += 1 }
        }
        let claimantStart = start, claimantAddresses = claimantList
        func claimants(_ b: Int) -> ArraySlice<Int> { claimantAddresses[claimantStart[b]..<claimantStart[b + 1]] }

        // Each address's decision reads the proposals and the scene only: on all workers.
        return pool.map(proposals.count, chunkSize: 4096) { _, a in
            guard let proposal = proposals[a] else { return Decision(link: nil, unlinked: .nothingWithinReach) }
            var rival: Double?
            if proposal.method == .proximity, options.strategy == .flyr {
                let rivals = OwnershipRule.rivals(of: a, claimants: claimants(proposal.building), scene: scene)
                rival = rivals.map { scene.addressPoints[$0].distance(to: proposal.nearestPoint) }.min()
                if OwnershipRule.belongsToAnother(a, proposal, rivals: rivals, proposals: proposals, scene: scene, options: options) {
                    return Decision(link: nil, unlinked: .ownedByAnotherAddress)
                }
            }
            let confidence = ConfidenceModel.score(proposal, rivalDistance: rival, options: options)
            guard confidence >= 0.5 else { return Decision(link: nil, unlinked: .lowConfidence) }
            let link = Link(addressIndex: a, buildingIndex: proposal.building, method: proposal.method,
                            confidence: confidence, distance: proposal.distance)
            return Decision(link: link, unlinked: nil)
        }
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
