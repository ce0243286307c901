/// When a building is clearly another address's house, a proximity link onto it is not made
/// (a vacant lot beside a house must not take the neighbour's house). The rivals are the other
/// addresses claiming the same building with a different house (street and number). An address
/// farther than `ownershipExemptDistance` from the building loses it when:
///
/// - the rivals are one house (the building is a house): a rival is closer to the spot it would
///   link to than `ownershipRatio` × its own distance (the spot is in the rival's part of the
///   building), or that spot is a corner of the footprint (the address is diagonally off the
///   building, not in front of any of its walls);
/// - the rivals are several houses (a row, a block of entrances, whose doors are spread along it):
///   a rival is closer than half that, or the spot is a corner and a rival is closer than
///   `ownershipRatio` × its distance (a lot beside the row's end, not the end unit's door);
/// - in both cases: a nearer rival faces the building from another side (the address is beside
///   the building while the building's own address is in front of it).
///
/// The thresholds were chosen on the synthetic city (benchmarks/README.md).
enum OwnershipRule {
    static func rivals(of a: Int, claimants: ArraySlice<Int32>, scene: MetricScene) -> [Int] {
        let key = scene.addressKeys[a]
        var rivals: [Int] = []
        for c in claimants {
            let b = Int(c)
            if b != a && (key == nil || scene.addressKeys[b] != key) { rivals.append(b) }
        }
        return rivals
    }

    static func belongsToAnother(_ a: Int, _ p: ProximityMatcher.Proposal, rivals: [Int], proposals: [ProximityMatcher.Proposal?],
                                 scene: MetricScene, options: LinkOptions) -> Bool {
        guard !rivals.isEmpty, p.distance > options.ownershipExemptDistance else { return false }
        let q = p.nearestPoint
        let closest = rivals.map { scene.addressPoints[$0].distance(to: q) }.min()!
        let corner = p.atCorner
        let facing = direction(from: q, to: scene.addressPoints[a])
        // How the rivals in front of the building face it (those inside say nothing about a side).
        let rivalFacings: [(distance: Double, facing: Point2)] = rivals.compactMap { b in
            guard let rp = proposals[b], rp.method == .proximity else { return nil }
            return (rp.distance, direction(from: rp.nearestPoint, to: scene.addressPoints[b]))
        }
        func alignment(_ f: Point2) -> Double { facing.x * f.x + facing.y * f.y }
        if Set(rivals.map { scene.addressKeys[$0] }).count > 1 {
            if closest < 0.5 * options.ownershipRatio * p.distance { return true }
            let facesLikeTheRow = rivalFacings.contains { alignment($0.facing) >= 0.6 }
            if corner && !facesLikeTheRow && closest < options.ownershipRatio * p.distance { return true }
        } else {
            if closest < options.ownershipRatio * p.distance { return true }
            if corner { return true }
        }
        return rivalFacings.contains { $0.distance < p.distance && alignment($0.facing) < 0.25 }
    }

    /// The nearest point of the footprint is one of its vertices (within 1 cm).
    static func isCorner(_ q: Point2, of footprint: FootprintView) -> Bool {
        footprint.points.contains { $0.distance(to: q) < 0.01 }
    }

    static func direction(from q: Point2, to p: Point2) -> Point2 {
        let d = q.distance(to: p)
        return d > 0 ? Point2(x: (p.x - q.x) / d, y: (p.y - q.y) / d) : Point2(x: 0, y: 0)
    }
}

