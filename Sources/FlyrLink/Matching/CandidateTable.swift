/// Every address's candidate buildings: the footprints within the maximum distance, nearest first
/// (covering ones at distance 0, the smaller first), at most `CandidateTable.limit` of them. What
/// the evidence reads once the footprints are gone: each candidate carries the measures of its
/// footprint that the features need (area, whether the nearest point is a corner).
struct CandidateTable: Sendable {
    /// 24 bytes, not 48: a run holds a few per address through the decisions (at 1M addresses
    /// up to 4M of them). Single precision is a micrometre at 40 m and 0.01% of an area.
    struct Candidate: Sendable {
        let building: Int32
        let distance: Float
        let area: Float
        /// From the address to the footprint's nearest point, in metres (0 when it covers it).
        let dx: Float
        let dy: Float
        let covers: Bool
        /// The footprint's nearest point to the address is one of its vertices (the address
        /// faces a corner, not a wall).
        let atCorner: Bool
    }

    /// The features see the nearest few only: farther ones never won on real data (the fourth
    /// nearest was the true building for under 1% of LA's and Denmark's addresses).
    static let limit = 4

    /// Address a's candidates are candidates[start[a]..<start[a + 1]].
    private let start: [Int32]
    private let candidates: [Candidate]

    init(start: [Int32], candidates: [Candidate]) {
        self.start = start
        self.candidates = candidates
    }

    var addressCount: Int { start.count - 1 }

    subscript(address: Int) -> ArraySlice<Candidate> {
        candidates[Int(start[address])..<Int(start[address + 1])]
    }

    /// Every address's candidates in one list (address 0's first): entry e is `entry(e)`.
    var entryCount: Int { candidates.count }

    func entry(_ e: Int) -> Candidate { candidates[e] }

    /// Which address each entry is a candidate of.
    func entryAddresses() -> [Int32] {
        var owner = [Int32](repeating: 0, count: candidates.count)
        for a in 0..<addressCount { for e in Int(start[a])..<Int(start[a + 1]) { owner[e] = Int32(a) } }
        return owner
    }

    /// The nearest candidate of each address (covering first), or nil.
    func first(of address: Int) -> Candidate? {
        start[address] < start[address + 1] ? candidates[Int(start[address])] : nil
    }
}

extension CandidateSearch {
    /// Every address's candidates (`CandidateTable`), on the workers, in the scene's search order;
    /// each address's list lands in its own slot, so the table is the same for any thread count.
    static func candidates(_ scene: MetricScene, index: FootprintIndex, options: LinkOptions, pool: WorkerPool) -> CandidateTable {
        let order = scene.searchOrder
        let chunkSize = 512
        // Each chunk of the search order as one flat list and its addresses' counts (an array
        // per address was a million allocations), then laid out in address order.
        let chunks = pool.map((order.count + chunkSize - 1) / chunkSize, chunkSize: 1) { _, c -> (counts: [UInt8], found: [CandidateTable.Candidate]) in
            var near: [(bboxDistance: Double, building: Int)] = []
            var one: [CandidateTable.Candidate] = []
            var counts: [UInt8] = [], found: [CandidateTable.Candidate] = []
            for k in c * chunkSize..<min((c + 1) * chunkSize, order.count) {
                candidates(of: scene.addressPoints[Int(order[k])], scene: scene, index: index, reach: options.maxDistance,
                           scratch: &near, into: &one)
                counts.append(UInt8(one.count))
                found.append(contentsOf: one)
            }
            return (counts, found)
        }
        var start = [Int32](repeating: 0, count: order.count + 1)
        for (c, chunk) in chunks.enumerated() {
            for (k, n) in chunk.counts.enumerated() { start[Int(order[c * chunkSize + k]) + 1] = Int32(n) }
        }
        for a in 0..<order.count { start[a + 1] += start[a] }
        let total = Int(start[order.count])
        let laidOut = [CandidateTable.Candidate](unsafeUninitializedCapacity: total) { out, made in
            for (c, chunk) in chunks.enumerated() {
                var from = 0
                for (k, n) in chunk.counts.enumerated() {
                    var at = Int(start[Int(order[c * chunkSize + k])])
                    for i in from..<from + Int(n) { out.initializeElement(at: at, to: chunk.found[i]); at += 1 }
                    from += Int(n)
                }
            }
            made = total
        }
        return CandidateTable(start: start, candidates: laidOut)
    }

    /// The nearest `CandidateTable.limit` footprints within `reach` of `p`, into `found`. Boxes
    /// are measured nearest first and the search stops once a box is farther than the last of
    /// the nearest found so far (a box's distance is a lower bound of its footprint's).
    static func candidates(of p: Point2, scene: MetricScene, index: FootprintIndex, reach: Double,
                           scratch near: inout [(bboxDistance: Double, building: Int)], into found: inout [CandidateTable.Candidate]) {
        found.removeAll(keepingCapacity: true)
        near.removeAll(keepingCapacity: true)
        index.grid.search(BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y).expanded(by: reach)) { b, box in
            let d = box.distance(to: p)
            if d <= reach { near.append((d, b)) }
        }
        guard !near.isEmpty else { return }
        near.sort { $0.bboxDistance != $1.bboxDistance ? $0.bboxDistance < $1.bboxDistance : $0.building < $1.building }
        let footprints = scene.footprints
        var measured: [(distance: Double, area: Double, building: Int, covers: Bool, corner: Bool, offset: Point2)] = []
        measured.reserveCapacity(8)
        for (boxDistance, b) in near {
            if measured.count >= CandidateTable.limit, boxDistance > measured[CandidateTable.limit - 1].distance { break }
            let footprint = footprints[b]
            var distance = 0.0, corner = false, offset = Point2(x: 0, y: 0)
            let covers = boxDistance == 0 && footprint.covers(p)
            if !covers {
                let (d, q) = footprint.nearestOutlinePoint(to: p)
                guard d <= reach else { continue }
                // A point on the outline in its source CRS can land a hair outside after
                // reprojection: within a millimetre it is on the outline, and so covered.
                distance = d <= outlineTolerance ? 0 : d
                if distance > 0 { offset = Point2(x: q.x - p.x, y: q.y - p.y) }
                corner = d > outlineTolerance && footprint.points.contains { $0.distance(to: q) < 0.01 }
            }
            measured.append((distance, footprint.area, b, covers || distance == 0, corner, offset))
            // Nearest first; covering footprints the smaller first; then id (buildings are in id order).
            measured.sort { $0.distance != $1.distance ? $0.distance < $1.distance
                : $0.area != $1.area ? $0.area < $1.area : $0.building < $1.building }
        }
        for m in measured.prefix(CandidateTable.limit) {
            found.append(.init(building: Int32(m.building), distance: Float(m.distance), area: Float(m.area),
                               dx: Float(m.offset.x), dy: Float(m.offset.y), covers: m.covers, atCorner: m.corner))
        }
    }
}
