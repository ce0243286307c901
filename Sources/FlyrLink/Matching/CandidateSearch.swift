/// What one address sees around it: the footprints that cover it, and the nearest others within
/// reach. Computed independently per address, so any worker may do any address.
struct AddressSurroundings: Sendable {
    struct Candidate: Sendable {
        var building: Int
        var distance: Double
        /// The point of the footprint nearest to the address.
        var nearestPoint: Point2
    }

    /// Footprints covering the point (boundary included), smallest area first, then id.
    var covering: [Int] = []
    /// Footprints within the maximum distance, nearest first (then id). Filled only when nothing
    /// covers the point, and only as far as the decision needs.
    var nearby: [Candidate] = []
}

enum CandidateSearch {
    /// Metres: coordinate noise, not distance.
    static let outlineTolerance = 0.001

    /// Every address's proposal (ProximityMatcher.propose), decided as soon as its surroundings are
    /// known, in spatially sorted chunks; surroundings kept only for `keep` (sticky links re-read them).
    static func proposals(_ scene: MetricScene, index: FootprintIndex, options: LinkOptions, accessory: [Bool], pool: WorkerPool,
                          keep: [Bool]? = nil) -> (proposals: [ProximityMatcher.Proposal?], kept: [Int: AddressSurroundings]) {
        let order = scene.searchOrder
        func search(_ slots: ResultSlots<ProximityMatcher.Proposal?>, keeping keptSlots: ResultSlots<AddressSurroundings?>?) {
            pool.forEachRange(order.count, chunkSize: 512) { stretch in
                // Buffers reused from address to address (no allocation per address).
                var near: [(bboxDistance: Double, building: Int)] = []
                var s = AddressSurroundings()
                for k in stretch {
                    let a = Int(order[k])
                    surroundings(of: a, scene: scene, index: index, options: options, accessory: accessory, scratch: &near, into: &s)
                    slots.set(a, ProximityMatcher.propose(s, accessory: accessory))
                    if let keep, let keptSlots { keptSlots.set(a, keep[a] ? s : nil) }
                }
            }
        }
        // Surroundings are stored (for sticky links) only when asked for.
        var keptSurroundings: [AddressSurroundings?] = []
        let proposals = ResultSlots<ProximityMatcher.Proposal?>.collect(order.count) { slots in
            if keep == nil {
                search(slots, keeping: nil)
            } else {
                keptSurroundings = ResultSlots<AddressSurroundings?>.collect(order.count) { search(slots, keeping: $0) }
            }
        }
        var kept: [Int: AddressSurroundings] = [:]
        for (a, s) in keptSurroundings.enumerated() { if let s { kept[a] = s } }
        return (proposals, kept)
    }

    /// Address indices sorted by 250 m cells in row order, then x: neighbours end up in one chunk.
    static func spatialOrder(_ points: [Point2], pool: WorkerPool) -> [Int32] {
        let cell = 250.0
        // One integer key per point (row, then column), sorted with the point's index on the workers.
        var minX = Double.infinity, minY = Double.infinity
        for p in points { minX = min(minX, p.x); minY = min(minY, p.y) }
        var keyed = pool.map(points.count, chunkSize: 65_536) { _, i -> IndexedKey<UInt64> in
            let row = UInt64(min(((points[i].y - minY) / cell).rounded(.down), 4e9))
            let col = UInt64(min(((points[i].x - minX) / cell).rounded(.down), 4e9))
            return IndexedKey(key: row << 32 | col, index: Int32(i))
        }
        ParallelSort.sort(&keyed, pool: pool)
        return keyed.map { $0.index }
    }

    /// The footprints whose boxes lie within `reach` of `p`, nearest box first, then index (id order),
    /// into `near`. Grid boxes enclose footprints by micrometres: still a lower bound of the distance.
    static func boxes(near p: Point2, index: FootprintIndex, reach: Double, into near: inout [(bboxDistance: Double, building: Int)]) {
        near.removeAll(keepingCapacity: true)
        index.grid.search(BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y).expanded(by: reach)) { b, box in
            let d = box.distance(to: p)
            if d <= reach { near.append((d, b)) }
        }
        near.sort { $0.bboxDistance != $1.bboxDistance ? $0.bboxDistance < $1.bboxDistance : $0.building < $1.building }
    }

    /// Address `a`'s surroundings, written into `result` (whose arrays keep their capacity).
    /// `scratch` is the caller's buffer for the boxes within reach, reused from address to address.
    static func surroundings(of a: Int, scene: MetricScene, index: FootprintIndex, options: LinkOptions, accessory: [Bool],
                             scratch near: inout [(bboxDistance: Double, building: Int)], into result: inout AddressSurroundings) {
        result.covering.removeAll(keepingCapacity: true)
        result.nearby.removeAll(keepingCapacity: true)
        let p = scene.addressPoints[a]
        boxes(near: p, index: index, reach: options.maxDistance, into: &near)
        guard !near.isEmpty else { return }
        measure(p, near: near, footprints: scene.footprints, scene: scene, options: options, accessory: accessory, into: &result)
    }

    /// The covering footprints among `near` (boxes within reach, nearest first), or else the nearby
    /// ones, into `result` (empty).
    private static func measure(_ p: Point2, near: [(bboxDistance: Double, building: Int)], footprints: FootprintStore,
                                scene: MetricScene, options: LinkOptions, accessory: [Bool], into result: inout AddressSurroundings) {
        let reach = options.maxDistance
        for (d, b) in near where d == 0 {
            if footprints[b].covers(p) { result.covering.append(b) }
        }
        if !result.covering.isEmpty {
            result.covering.sort(by: scene.smallerFirst)
            return
        }
        // Exact distances, nearest boxes first; stop once no further footprint can matter:
        // beyond the best main building plus the accessory radius nothing changes the decision.
        var bestMain = Double.infinity
        for (d, b) in near {
            if d > bestMain + options.accessoryRadius { break }
            let (distance, q) = footprints[b].nearestOutlinePoint(to: p)
            guard distance <= reach else { continue }
            result.nearby.append(.init(building: b, distance: distance, nearestPoint: q))
            if !accessory[b] { bestMain = min(bestMain, distance) }
        }
        result.nearby.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.building < $1.building }
        // A point on the outline in its source CRS can land a hair outside after reprojection:
        // within a millimetre it is on the outline, and so covered.
        if result.nearby.first.map({ $0.distance <= outlineTolerance }) == true {
            for c in result.nearby where c.distance <= outlineTolerance { result.covering.append(c.building) }
            result.covering.sort(by: scene.smallerFirst)
            result.nearby.removeAll(keepingCapacity: true)
        }
    }
}
