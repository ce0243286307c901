/// Footprints compressed in lossless zstd chunks while no stage reads them, coordinates xored with the
/// previous point's by byte plane (plain zstd keeps 73% of their bytes, this 51%).
package final class CompressedFootprints: @unchecked Sendable {
    /// The buildings compressed, ascending: compressed footprint k is building `buildings[k]`'s.
    let buildings: [Int32]
    private let chunks: [ZstdChunk]

    static var chunkFootprints: Int { 16_384 }

    /// The footprints of `buildings` (ascending; footprint b of `store` is building b's).
    package init(compressing store: FootprintStore, buildings: [Int32], pool: WorkerPool) {
        self.buildings = buildings
        let n = (buildings.count + Self.chunkFootprints - 1) / Self.chunkFootprints
        chunks = pool.map(n, chunkSize: 1, workerState: { [UInt8]() }) { _, raw, c in
            let part = c * Self.chunkFootprints..<min((c + 1) * Self.chunkFootprints, buildings.count)
            return Self.pack(part.map { store[Int(buildings[$0])] }, raw: &raw)
        }
    }

    private init(buildings: [Int32], chunks: [ZstdChunk]) {
        self.buildings = buildings
        self.chunks = chunks
    }

    deinit {
        for chunk in chunks { chunk.free() }
    }

    /// The footprints as bytes, for a tile's pack (`TilePack`): their count, then each chunk
    /// (`ZstdChunk.append(count:_:to:)`; which building each is, is the pack's business).
    package func append(to bytes: inout [UInt8]) {
        ZstdChunk.append(count: buildings.count, chunks, to: &bytes)
    }

    /// The footprints `append(to:)` wrote at `offset` (moved past them) as a store, in order; nil
    /// when the bytes end first.
    package static func store(_ bytes: UnsafeRawBufferPointer, at offset: inout Int, pool: WorkerPool) -> FootprintStore? {
        guard let (count, chunks) = ZstdChunk.read(counted: bytes, perChunk: chunkFootprints, at: &offset) else { return nil }
        guard count > 0 else { return FootprintStore([]) }
        let all = (0..<Int32(count)).map { $0 }
        return CompressedFootprints(buildings: all, chunks: chunks).store(of: all, pool: pool)
    }

    /// The footprints of `wanted` (ascending; each one of `buildings`), in that order, unpacking
    /// only the chunks that hold them.
    func store(of wanted: [Int32], pool: WorkerPool) -> FootprintStore {
        // Each wanted building's compressed position, cut into each chunk's.
        let positions = positions(of: wanted, in: buildings, holder: "the compressed footprints")
        var cuts = [0]
        for i in positions.indices.dropFirst() where positions[i] / Self.chunkFootprints != positions[i - 1] / Self.chunkFootprints { cuts.append(i) }
        cuts.append(positions.count)
        let parts = pool.map(cuts.count - 1, chunkSize: 1, workerState: { [UInt8]() }) { _, raw, w -> FootprintStore in
            let part = cuts[w]..<cuts[w + 1]
            guard let first = part.first.map({ positions[$0] }) else { return FootprintStore([]) }
            let c = first / Self.chunkFootprints
            return unpack(c, raw: &raw, local: part.map { positions[$0] - c * Self.chunkFootprints })
        }
        // Where each wanted footprint lies among the parts.
        var part = [Int32](repeating: 0, count: wanted.count)
        for w in 0..<cuts.count - 1 { for i in cuts[w]..<cuts[w + 1] { part[i] = Int32(w) } }
        return FootprintStore(count: wanted.count, pool: pool) { i in parts[Int(part[i])][i - cuts[Int(part[i])]] }
    }

    /// Chunk `c`'s footprints at `local` (ascending indices in the chunk), as a store.
    private func unpack(_ c: Int, raw: inout [UInt8], local: [Int]) -> FootprintStore {
        let chunk = chunks[c]
        chunk.unpack(into: &raw, what: "a compressed chunk of footprints")
        return raw.withUnsafeBytes { bytes in
            let n = bytes.load(as: UInt32.self).littleEndian
            let counts = bytes.baseAddress! + 4
            func count(_ i: Int) -> Int { Int(UInt32(littleEndian: counts.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self))) }
            var endCount = 0
            for i in 0..<Int(n) { endCount += count(Int(n) + i) }
            let endsAt = 4 + 8 * Int(n), closedAt = endsAt + 4 * endCount, wordsAt = closedAt + Int(n)
            let ends = (0..<endCount).map { Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: endsAt + 4 * $0, as: Int32.self)) }
            // The words back from their byte planes, then each xored with the one two before it.
            let wordCount = (bytes.count - wordsAt) / 8
            var words = [UInt64](repeating: 0, count: wordCount)
            for i in 0..<wordCount {
                var word: UInt64 = 0
                for plane in 0..<8 { word |= UInt64(bytes[wordsAt + plane * wordCount + i]) << (8 * plane) }
                words[i] = word
            }
            if wordCount > 2 { for i in 2..<wordCount { words[i] ^= words[i - 2] } }
            let builder = FootprintStore.Builder()
            var p = 0, e = 0, next = 0
            var points: [Point2] = []
            for i in 0..<Int(n) {
                let np = count(i), ne = count(Int(n) + i), closed = bytes[closedAt + i] != 0
                let layout = RingLayout(ends: ends[e..<e + ne], pointCount: np)
                let stored = np - (closed ? layout.ringCount : 0)
                defer { p += stored; e += ne }
                guard next < local.count, local[next] == i else { continue }
                next += 1
                points.removeAll(keepingCapacity: true)
                var q = p
                for r in 0..<layout.ringCount {
                    let first = points.count
                    for _ in 0..<layout.ringRange(r).count - (closed ? 1 : 0) {
                        points.append(Point2(x: Double(bitPattern: words[2 * q]), y: Double(bitPattern: words[2 * q + 1])))
                        q += 1
                    }
                    if closed { points.append(points[first]) }
                }
                builder.append(Footprint(points: points, layoutEnds: Array(ends[e..<e + ne])))
            }
            return builder.finish()
        }
    }

    /// Whether every ring of `f` ends on its first point, to the bit (a closed ring, as most
    /// sources give them): those last points are left out (a fifth of a city's points).
    private static func closed(_ f: FootprintView) -> Bool {
        (0..<f.ringCount).allSatisfy { r in
            let ring = f.ring(r)
            return ring.count >= 2 && ring[ring.count - 1].x.bitPattern == ring[0].x.bitPattern
                && ring[ring.count - 1].y.bitPattern == ring[0].y.bitPattern
        }
    }

    /// `footprints` as a chunk; `raw`: a buffer to reuse.
    private static func pack(_ footprints: [FootprintView], raw: inout [UInt8]) -> ZstdChunk {
        raw.removeAll(keepingCapacity: true)
        func append32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { raw.append(contentsOf: $0) } }
        append32(UInt32(footprints.count))
        for f in footprints { append32(UInt32(f.points.count)) }
        for f in footprints { append32(UInt32(f.layout.ends.count)) }
        for f in footprints { for e in f.layout.ends { append32(UInt32(bitPattern: e)) } }
        let closed = footprints.map(Self.closed)
        raw.append(contentsOf: closed.map { $0 ? 1 : 0 })
        var words: [UInt64] = []
        words.reserveCapacity(footprints.reduce(0) { $0 + 2 * $1.points.count })
        for (f, closed) in zip(footprints, closed) {
            for r in 0..<f.ringCount {
                for q in f.ring(r).dropLast(closed ? 1 : 0) { words.append(q.x.bitPattern); words.append(q.y.bitPattern) }
            }
        }
        for i in words.indices.reversed() where i >= 2 { words[i] ^= words[i - 2] }
        let wordsAt = raw.count
        raw.append(contentsOf: repeatElement(0, count: 8 * words.count))
        raw.withUnsafeMutableBytes { out in
            for i in words.indices {
                for plane in 0..<8 { out[wordsAt + plane * words.count + i] = words[i].byte(plane) }
            }
        }
        return raw.withUnsafeBytes { ZstdChunk(compressing: $0) }
    }
}

private extension UInt64 {
    /// Byte `k` of the value, the least significant first.
    @inline(__always) func byte(_ k: Int) -> UInt8 { UInt8(truncatingIfNeeded: self >> (8 * k)) }
}
