/// Every address's candidate buildings within the maximum distance, nearest first (covering ones at
/// 0, the smaller first), at most `limit`; carries what the features need once footprints are gone.
struct CandidateTable: Sendable {
    /// 12 bytes, since a run holds up to six per address through the decisions. Covering and corner
    /// are in the distance (0 and its sign); the offset is half precision (3 cm at 40 m is enough).
    struct Candidate: Sendable {
        let building: Int32
        private let signedDistance: Float
        private let storedDX: Float16
        private let storedDY: Float16

        init(building: Int32, distance: Float, dx: Float, dy: Float, covers: Bool, atCorner: Bool) {
            precondition(distance >= 0 && covers == (distance == 0) && (!atCorner || distance > 0),
                         "a candidate covers the address exactly when at 0 m, and a corner is farther")
            self.building = building
            signedDistance = atCorner ? -distance : distance
            storedDX = Float16(dx)
            storedDY = Float16(dy)
        }

        var distance: Float { abs(signedDistance) }
        var covers: Bool { signedDistance == 0 }
        /// The footprint's nearest point to the address is one of its vertices (the address
        /// faces a corner, not a wall).
        var atCorner: Bool { signedDistance < 0 }

        /// From the address to the footprint's nearest point, in metres (0 when it covers it).
        var dx: Float { Self.widened(storedDX) }
        var dy: Float { Self.widened(storedDY) }

        /// `Float(h)` to the bit, without the library call x86-64 makes of it (hot in the street sides'
        /// votes); the sign is set as a bit, not by a branch the processor would mispredict.
        @inline(__always) static func widened(_ h: Float16) -> Float {
            let bits = h.bitPattern
            guard bits & 0x7C00 != 0x7C00 else { return Float(h) }  // ±infinity, NaN
            let magnitude = Float(bitPattern: UInt32(bits & 0x7FFF) << 13) * 0x1p112
            return Float(bitPattern: magnitude.bitPattern | UInt32(bits & 0x8000) << 16)
        }
    }

    /// The features see the nearest six only: four lose 0.003 of F1 on la_dev, and more add little
    /// (benchmarks/README.md, "How the model was chosen").
    static let limit = 6

    /// Address a's candidates are candidates[start[a]..<start[a] + counts[a]]: the lists lie in
    /// the order the search visited the addresses (see `CandidateSearch.candidates`).
    private let start: [Int32]
    private let counts: [UInt8]
    private let candidates: [Candidate]
    /// How many of `candidates` are entries (the rest is the search's unused room, handed back).
    let entryCount: Int
    /// Every building's footprint area (m²).
    private let areas: [Float]
    /// Each entry's distance to its footprint's centroid, half precision: a stand-in for whose lot the
    /// building is on. Kept apart so that `Candidate` stays 12 bytes.
    private let centroidDistances: [Float16]

    init(start: [Int32], counts: [UInt8], candidates: [Candidate], entryCount: Int, areas: [Float], centroidDistances: [Float16]) {
        precondition(centroidDistances.count == entryCount, "a centroid distance per entry")
        self.start = start
        self.counts = counts
        self.candidates = candidates
        self.entryCount = entryCount
        self.areas = areas
        self.centroidDistances = centroidDistances
    }

    /// Entry e's distance from its address to its footprint's centroid, in metres.
    func centroidDistance(ofEntry e: Int) -> Float { Candidate.widened(centroidDistances[e]) }

    func area(_ c: Candidate) -> Float { areas[Int(c.building)] }

    var addressCount: Int { start.count }

    var buildingCount: Int { areas.count }

    subscript(address: Int) -> ArraySlice<Candidate> {
        candidates[Int(start[address])..<Int(start[address]) + Int(counts[address])]
    }

    /// Entry e of the table (an address's candidates are `entries(of:)`).
    func entry(_ e: Int) -> Candidate { candidates[e] }

    /// Where address a's candidates lie among the entries.
    func entries(of address: Int) -> Range<Int> { Int(start[address])..<Int(start[address]) + Int(counts[address]) }

    /// The buildings (ascending) that two addresses or more have among their candidates: the
    /// only ones a run can link twice.
    func buildingsSeenTwice() -> [Int32] {
        var seen = [UInt8](repeating: 0, count: areas.count)
        for e in 0..<entryCount where seen[Int(candidates[e].building)] < 2 { seen[Int(candidates[e].building)] += 1 }
        return seen.indices.compactMap { seen[$0] >= 2 ? Int32($0) : nil }
    }

    /// The nearest candidate of each address (covering first), or nil.
    func first(of address: Int) -> Candidate? {
        counts[address] > 0 ? candidates[Int(start[address])] : nil
    }
}

extension CandidateSearch {
    /// Every address's candidates (`CandidateTable`), on the workers, in the scene's search order;
    /// each address's list lands in its own slot, so the table is the same for any thread count.
    static func candidates(_ scene: MetricScene, index: FootprintIndex, options: LinkOptions, pool: WorkerPool) -> CandidateTable {
        let order = scene.searchOrder
        let chunkSize = 512, room = chunkSize * CandidateTable.limit
        let chunkCount = (order.count + chunkSize - 1) / chunkSize
        // Each chunk of the search order writes into room of its own (unwritten pages are never
        // resident); the lists are then moved down in place, so they are never held twice.
        var start = [Int32](repeating: 0, count: order.count)
        var counts = [UInt8](repeating: 0, count: order.count)
        var used = [Int](repeating: 0, count: chunkCount)
        var candidates = [CandidateTable.Candidate](unsafeUninitializedCapacity: chunkCount * room) { _, made in made = chunkCount * room }
        candidates.withUnsafeMutableBufferPointer { storage in
            let slots = UncheckedBox(storage)
            start.withUnsafeMutableBufferPointer { startOut in
                counts.withUnsafeMutableBufferPointer { countOut in
                    used.withUnsafeMutableBufferPointer { usedOut in
                        let shared = UncheckedBox((startOut, countOut, usedOut))
                        pool.forEachChunk(chunkCount) { _, c in
                            var scratch = CandidateSearch.Scratch()
                            var one: [CandidateTable.Candidate] = []
                            var at = c * room
                            for k in c * chunkSize..<min((c + 1) * chunkSize, order.count) {
                                let a = Int(order[k])
                                CandidateSearch.candidates(of: scene.addressPoints[a], scene: scene, index: index, reach: options.maxDistance,
                                           scratch: &scratch, into: &one)
                                shared.value.0[a] = Int32(at)
                                shared.value.1[a] = UInt8(one.count)
                                for candidate in one { (slots.value.baseAddress! + at).initialize(to: candidate); at += 1 }
                            }
                            shared.value.2[c] = at - c * room
                        }
                    }
                }
            }
        }
        // Close the gaps, chunk by chunk from the front (an entry only ever moves down).
        var moveTo = 0
        var shift = [Int](repeating: 0, count: chunkCount)
        candidates.withUnsafeMutableBufferPointer { storage in
            for c in 0..<chunkCount {
                shift[c] = c * room - moveTo
                if shift[c] > 0 { (storage.baseAddress! + moveTo).update(from: storage.baseAddress! + c * room, count: used[c]) }
                moveTo += used[c]
            }
            ConsumedPages.dropTail(UnsafeBufferPointer(storage), from: moveTo)
        }
        for k in 0..<order.count {
            let a = Int(order[k])
            start[a] -= Int32(shift[k / chunkSize])
        }
        let areas = pool.map(scene.footprints.count, chunkSize: 16_384) { _, b in Float(scene.footprints[b].area) }
        let centroidDistances = Self.centroidDistances(scene, start: start, counts: counts, candidates: candidates, entryCount: moveTo, pool: pool)
        return CandidateTable(start: start, counts: counts, candidates: candidates, entryCount: moveTo, areas: areas,
                              centroidDistances: centroidDistances)
    }

    /// `CandidateTable.centroidDistance` of every entry: each footprint's centroid found once
    /// (not once per address that sees it), then each entry's distance, written to its own slot.
    private static func centroidDistances(_ scene: MetricScene, start: [Int32], counts: [UInt8], candidates: [CandidateTable.Candidate],
                                          entryCount: Int, pool: WorkerPool) -> [Float16] {
        let centroids = pool.map(scene.footprints.count, chunkSize: 16_384) { _, b in scene.footprints[b].centroid }
        var out = [Float16](repeating: 0, count: entryCount)
        let chunkSize = 16_384, chunkCount = (start.count + chunkSize - 1) / chunkSize
        out.withUnsafeMutableBufferPointer { out in
            let slots = UncheckedBox(out)
            pool.forEachChunk(chunkCount) { _, c in
                for a in c * chunkSize..<min((c + 1) * chunkSize, start.count) {
                    let p = scene.addressPoints[a]
                    for e in Int(start[a])..<Int(start[a]) + Int(counts[a]) {
                        slots.value[e] = Float16(p.distance(to: centroids[Int(candidates[e].building)]))
                    }
                }
            }
        }
        return out
    }

    /// A worker's buffers for `candidates(of:…)`, reused from address to address (no allocation each).
    struct Scratch {
        var near: [(bboxDistance: Double, building: Int)] = []
        var measured: [(distance: Double, area: Double, building: Int, covers: Bool, corner: Bool, offset: Point2)] = []
    }

    /// The nearest `CandidateTable.limit` footprints within `reach` of `p`, into `found`; stops once a
    /// box is farther than the last kept (a box's distance is a lower bound of its footprint's).
    static func candidates(of p: Point2, scene: MetricScene, index: FootprintIndex, reach: Double,
                           scratch: inout Scratch, into found: inout [CandidateTable.Candidate]) {
        found.removeAll(keepingCapacity: true)
        boxes(near: p, index: index, reach: reach, into: &scratch.near)
        guard !scratch.near.isEmpty else { return }
        let footprints = scene.footprints
        scratch.measured.removeAll(keepingCapacity: true)
        for (boxDistance, b) in scratch.near {
            let measuredCount = scratch.measured.count
            if measuredCount >= CandidateTable.limit, boxDistance > scratch.measured[CandidateTable.limit - 1].distance { break }
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
            let m = (distance: distance, area: footprint.area, building: b, covers: covers || distance == 0, corner: corner, offset: offset)
            // Nearest first; covering ones the smaller first; then id. Inserted in place among those before
            // (all distinct), so the order is exactly what a full sort would give.
            let place = scratch.measured.firstIndex { $0.distance != m.distance ? m.distance < $0.distance
                : $0.area != m.area ? m.area < $0.area : m.building < $0.building } ?? measuredCount
            scratch.measured.insert(m, at: place)
        }
        for m in scratch.measured.prefix(CandidateTable.limit) {
            found.append(.init(building: Int32(m.building), distance: Float(m.distance), dx: Float(m.offset.x), dy: Float(m.offset.y),
                               covers: m.covers, atCorner: m.corner))
        }
    }
}
