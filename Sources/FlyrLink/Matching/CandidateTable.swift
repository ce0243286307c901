/// Every address's candidate buildings: the footprints within the maximum distance, nearest first
/// (covering ones at distance 0, the smaller first), at most `CandidateTable.limit` of them. What
/// the evidence reads once the footprints are gone: each candidate carries the measures of its
/// footprint that the features need (distance, offset to the nearest point, whether that is a
/// corner), and the table every building's area.
struct CandidateTable: Sendable {
    /// 12 bytes, not 48: a run holds up to six per address through the decisions (at 1M
    /// addresses 6.2M of them: 16 bytes each were 25 MB more at the match stage's peak, 24 bytes
    /// 50 MB more). Single precision is a micrometre at 40 m; the offset to the nearest point, in
    /// half precision, 3 cm at 40 m (it only says on which side of a street, and how far along, a
    /// candidate lies). Whether the footprint covers the address and whether its nearest point is
    /// a corner are in the distance: a covering footprint is at 0, a corner is never (it is
    /// farther than the outline's tolerance) and is kept as the distance's sign. Areas are the
    /// table's, per building; the distances to the centroids, per entry, apart.
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

        /// `Float(h)`, to the bit, without the library call the generic x86-64 target makes of it
        /// (1.7% of a 1M run's CPU): the half's bits moved into a float's place and scaled by
        /// 2^112, exact for every finite half, subnormals included. The sign is put in as a bit,
        /// not chosen by a branch: an offset's sign is a coin toss to the processor, and the street
        /// sides' votes widen tens of millions of offsets (at 1M: their samples −17%, the
        /// features' −10%).
        @inline(__always) static func widened(_ h: Float16) -> Float {
            let bits = h.bitPattern
            guard bits & 0x7C00 != 0x7C00 else { return Float(h) }  // ±infinity, NaN
            let magnitude = Float(bitPattern: UInt32(bits & 0x7FFF) << 13) * 0x1p112
            return Float(bitPattern: magnitude.bitPattern | UInt32(bits & 0x8000) << 16)
        }
    }

    /// The features see the nearest six only (four had been 0.003 of F1 less on la_dev; of the
    /// Danish road points whose true building is not among their six nearest within 40 m, 36 of
    /// 39 do not have it within 100 m either: benchmarks/README.md).
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
    /// Each entry's distance from its address to its footprint's centroid (`FootprintView.centroid`),
    /// in half precision (3 cm at 40 m, 25 cm at 400 m): with the other addresses that see the
    /// building, a stand-in for whose lot it stands on (the nearest outline favours a large
    /// building next door; the centroid is the building's own middle). Read by the features only;
    /// kept apart from the candidates, whose 12 bytes it would have made 16 (248 MB at 10M
    /// addresses instead of these 125).
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
        // Each chunk of the search order writes its lists into room of its own (pages never
        // written are never resident); then the lists are moved down to close the gaps, in
        // place, and the pages left behind are handed back. (Lists made apart and then laid out
        // held them twice: 290 MB at 1M addresses.)
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

    /// A worker's buffers for `candidates(of:…)`, reused from address to address (the measured
    /// footprints had been an array allocated for each address).
    struct Scratch {
        var near: [(bboxDistance: Double, building: Int)] = []
        var measured: [(distance: Double, area: Double, building: Int, covers: Bool, corner: Bool, offset: Point2)] = []
    }

    /// The nearest `CandidateTable.limit` footprints within `reach` of `p`, into `found`. Boxes
    /// are measured nearest first and the search stops once a box is farther than the last of
    /// the nearest found so far (a box's distance is a lower bound of its footprint's).
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
            // Nearest first; covering footprints the smaller first; then id (buildings are in id
            // order): put in its place among those before, which are in that order (no two alike,
            // so the very order a sort of them all again gives, as it was made before: with the
            // scratch, this function's own samples at 1M fell by a ninth).
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
