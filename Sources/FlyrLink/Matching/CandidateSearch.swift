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
    var failure: String?
}

enum CandidateSearch {
    /// Metres: coordinate noise, not distance.
    static let outlineTolerance = 0.001

    /// Looks at every address, in spatially sorted chunks so neighbouring addresses reuse the
    /// prepared footprints of their worker.
    static func run(_ scene: MetricScene, options: LinkOptions, accessory: [Bool], pool: WorkerPool) -> [AddressSurroundings] {
        let order = spatialOrder(scene.addressPoints)
        let chunkSize = 512
        let chunks = (order.count + chunkSize - 1) / chunkSize
        let slots = ResultSlots<AddressSurroundings>(count: order.count)
        pool.forEachChunk(chunks) { context, chunk in
            let cache = FootprintCache(context: context, scene: scene)
            for k in (chunk * chunkSize)..<min((chunk + 1) * chunkSize, order.count) {
                let a = order[k]
                slots.set(a, surroundings(of: a, scene: scene, options: options, accessory: accessory, cache: cache))
            }
        }
        return slots.finish()
    }

    /// Address indices sorted by 250 m cells in row order, then x: neighbours end up in one chunk.
    static func spatialOrder(_ points: [Point2]) -> [Int] {
        let cell = 250.0
        return points.indices.sorted { a, b in
            let ra = (points[a].y / cell).rounded(.down), rb = (points[b].y / cell).rounded(.down)
            if ra != rb { return ra < rb }
            let ca = (points[a].x / cell).rounded(.down), cb = (points[b].x / cell).rounded(.down)
            if ca != cb { return ca < cb }
            return a < b
        }
    }

    static func surroundings(of a: Int, scene: MetricScene, options: LinkOptions, accessory: [Bool], cache: FootprintCache) -> AddressSurroundings {
        var result = AddressSurroundings()
        let p = scene.addressPoints[a]
        let reach = options.maxDistance
        var near: [(bboxDistance: Double, building: Int)] = []
        scene.index.search(BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y).expanded(by: reach)) { b in
            let d = scene.boxes[b].distance(to: p)
            if d <= reach { near.append((d, b)) }
        }
        guard !near.isEmpty else { return result }
        near.sort { $0.bboxDistance != $1.bboxDistance ? $0.bboxDistance < $1.bboxDistance : $0.building < $1.building }
        do throws(GEOSError) {
            let point = try cache.context.point(p)
            for (d, b) in near where d == 0 {
                if try cache.footprint(b).covers(point) { result.covering.append(b) }
            }
            if !result.covering.isEmpty {
                result.covering.sort(by: scene.smallerFirst)
                return result
            }
            // Exact distances, nearest boxes first; stop once no further footprint can matter:
            // beyond the best main building plus the accessory radius nothing changes the decision.
            var bestMain = Double.infinity
            for (d, b) in near {
                if d > bestMain + options.accessoryRadius { break }
                let (distance, q) = try cache.footprint(b).nearest(point)
                guard distance <= reach else { continue }
                result.nearby.append(.init(building: b, distance: distance, nearestPoint: q))
                if !accessory[b] { bestMain = min(bestMain, distance) }
            }
            result.nearby.sort { $0.distance != $1.distance ? $0.distance < $1.distance : Ingest.idOrder(scene.buildingIDs[$0.building], scene.buildingIDs[$1.building]) }
            // A point on the outline in its source CRS can land a hair outside after reprojection:
            // within a millimetre it is on the outline, and so covered.
            let onOutline = result.nearby.filter { $0.distance <= outlineTolerance }.map(\.building)
            if !onOutline.isEmpty {
                result.covering = onOutline.sorted(by: scene.smallerFirst)
                result.nearby = []
            }
        } catch {
            result.failure = error.description
        }
        return result
    }
}
