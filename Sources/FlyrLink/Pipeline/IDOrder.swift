/// Byte order of ids: the order every output is written in. Made quick for millions of rows: the
/// first 16 bytes of each id, as two big-endian integers, settle almost every comparison.
package enum IDOrder {
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Never disagrees with `precedes`: a < b in bytes gives key(a) <= key(b) (short ids are padded
    /// with 0, the smallest byte).
    static func key(_ s: String) -> (UInt64, UInt64) {
        var s = s
        return s.withUTF8 { key(utf8: $0) }
    }

    static func key(utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var hi: UInt64 = 0, lo: UInt64 = 0, i = 0
        for b in utf8 {
            if i < 8 { hi |= UInt64(b) << (56 - 8 * i) } else if i < 16 { lo |= UInt64(b) << (120 - 8 * i) } else { break }
            i += 1
        }
        return (hi, lo)
    }

    /// An id's first 16 bytes and its row: sorted as plain integers, contiguous, with no string
    /// touched unless two ids share those bytes.
    struct Keyed: Comparable {
        var hi: UInt64
        var lo: UInt64
        var index: Int32

        func samePrefix(_ other: Keyed) -> Bool { hi == other.hi && lo == other.lo }

        static func < (a: Keyed, b: Keyed) -> Bool {
            a.hi != b.hi ? a.hi < b.hi : a.lo != b.lo ? a.lo < b.lo : a.index < b.index
        }
    }

    /// The compressed rows' indices in id order, each id once (its first row; repeats made rejects), sorted
    /// by `keyed` while the rows stay compressed; only rows sharing their 16-byte prefix are unpacked.
    static func keptOrder<T: Ingest.Identified & CompressibleRow>(_ keyed: inout [Keyed], compressed: CompressedRows<T>, dropping: [Bool]? = nil, layer: String,
                                                             rejects: inout [Reject], pool: WorkerPool) -> [Int32] {
        if let dropping, dropping.contains(true) { keyed.removeAll { dropping[Int($0.index)] } }
        // (The row breaks ties, so the order is total: the same whatever the thread count.)
        ParallelSort.sort(&keyed, pool: pool)
        var shared: [Range<Int>] = []
        var lower = 0
        while lower < keyed.count {
            var upper = lower + 1
            while upper < keyed.count, keyed[upper].samePrefix(keyed[lower]) { upper += 1 }
            if upper - lower > 1 { shared.append(lower..<upper) }
            lower = upper
        }
        var order = keyed.map(\.index)
        keyed = []
        guard !shared.isEmpty else { return order }
        let tied = shared.flatMap { order[$0].map(Int.init) }
        var rowOf: [Int32: T] = [:]
        for (i, row) in zip(tied, compressed.rows(at: tied, pool: pool)) { rowOf[Int32(i)] = row }
        func id<R>(_ i: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { rowOf[i]!.withIDUTF8(body) }
        var repeats = Set<Int>()
        for range in shared {
            order[range].sort { a, b in id(a) { x in id(b) { y in x.elementsEqual(y) ? a < b : x.lexicographicallyPrecedes(y) } } }
            // In id order, a repeat is an id equal to the one before it (ties keep the rows' order).
            var first = order[range.lowerBound]
            for k in range.dropFirst() {
                let i = order[k]
                if id(order[k - 1], { x in id(i) { x.elementsEqual($0) } }) {
                    rejects.append(Reject(layer: layer, sourceRow: rowOf[i]!.sourceRow, id: rowOf[i]!.id,
                                          reason: "duplicate id (first at row \(rowOf[first]!.sourceRow))"))
                    repeats.insert(k)
                } else {
                    first = i
                }
            }
        }
        if !repeats.isEmpty { order = order.indices.compactMap { repeats.contains($0) ? nil : order[$0] } }
        return order
    }

    /// A row's key, from its id.
    static func keyed<T: Ingest.Identified>(_ row: T, index: Int) -> Keyed {
        let (hi, lo) = row.withIDUTF8(IDOrder.key(utf8:))
        return Keyed(hi: hi, lo: lo, index: Int32(index))
    }
}
