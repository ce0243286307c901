/// Byte order of ids: the order every output is written in. Made quick for millions of rows: the
/// first 16 bytes of each id, as two big-endian integers, settle almost every comparison.
enum IDOrder {
    static func precedes(_ a: String, _ b: String) -> Bool {
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

    /// Indices `0..<count` in byte order of their ids (`id(i)`), each with its first 16 bytes
    /// (`key(i)`, made from where the id is kept); equal ids keep their index order. The ids are
    /// read where they are (at 10M rows an array of them was 160 MB of fresh pages); ids sharing
    /// their first 16 bytes are read again, whole. The keys are made and sorted on the workers
    /// (`key` is called from them).
    static func sorted(count: Int, pool: WorkerPool, key: (Int) -> (UInt64, UInt64), id: (Int) -> String) -> [Keyed] {
        var keyed = [Keyed](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = UncheckedBox(buffer)
            pool.forEachRange(count, chunkSize: 65_536) { stretch in
                for i in stretch {
                    let (hi, lo) = key(i)
                    out.value.initializeElement(at: i, to: Keyed(hi: hi, lo: lo, index: Int32(i)))
                }
            }
            initialized = count
        }
        // (The row breaks ties, so the order is total: the same whatever the thread count.)
        ParallelSort.sort(&keyed, pool: pool)
        // Ids that share their first 16 bytes (or are shorter and padded alike) ordered by all
        // their bytes, index on ties.
        var lower = 0
        while lower < keyed.count {
            var upper = lower + 1
            while upper < keyed.count, keyed[upper].samePrefix(keyed[lower]) { upper += 1 }
            if upper - lower > 1 {
                keyed[lower..<upper].sort { a, b in
                    let x = id(Int(a.index)), y = id(Int(b.index))
                    if x.utf8.elementsEqual(y.utf8) { return a.index < b.index }
                    return precedes(x, y)
                }
            }
            lower = upper
        }
        return keyed
    }

    /// `items` (in source row order) put in id order, with every repeat of an id made a reject
    /// (the row that comes first in the source keeps it). Rows are moved, never copied (a million
    /// rows copied are a million retains and releases of their strings), and gathered into a new
    /// array in id order: each read is independent of the last, so the processor overlaps the
    /// cache misses. Walking the permutation's cycles in place made every row wait for the one
    /// before it; at 10M rows that walk was half the ingest stage.
    /// Returns where each row now in `items` was before (a store of the rows' footprints follows them).
    @discardableResult
    static func sortUnique<T: Ingest.Identified>(_ items: inout [T], layer: String, rejects: inout [Reject],
                                                 pool: WorkerPool = WorkerPool(threads: 1)) -> [Int32] {
        let kept = keptOrder(items, layer: layer, rejects: &rejects, pool: pool)
        // Each stretch of the order gathered by a worker into its own part of the new array.
        let ordered = items.withUnsafeMutableBufferPointer { rows in
            [T](unsafeUninitializedCapacity: kept.count) { out, initialized in
                // (The rows in id order are read by index in every later stage.)
                if let base = out.baseAddress { HugePages.advise(UnsafeMutableRawPointer(base), bytes: out.count * MemoryLayout<T>.stride) }
                let (source, target) = (UncheckedBox(rows), UncheckedBox(out))
                pool.forEachRange(kept.count, chunkSize: 65_536) { stretch in
                    for n in stretch {
                        let row = source.value.baseAddress! + Int(kept[n])
                        target.value.initializeElement(at: n, to: row.move())
                        row.initialize(to: T.vacant)  // the old array still owns the slot
                    }
                }
                initialized = kept.count
            }
        }
        items = ordered
        return kept
    }

    /// The rows' indices in id order, each id once (its first row); the repeats made rejects. A
    /// function of its own so that the sort's keys (24 bytes a row) are gone before the rows are
    /// gathered beside their old array.
    private static func keptOrder<T: Ingest.Identified>(_ items: [T], layer: String, rejects: inout [Reject],
                                                        pool: WorkerPool) -> [Int32] {
        // (Through the protocol, not key paths: a key path per row is a runtime call.)
        func row(_ item: T) -> Int { item.sourceRow }
        let keyed = sorted(count: items.count, pool: pool, key: { items[$0].withIDUTF8(IDOrder.key(utf8:)) }, id: { items[$0].id })
        // In id order, a repeat is an id equal to the one before it (ties keep source order).
        var kept: [Int32] = []
        kept.reserveCapacity(keyed.count)
        var first = 0
        for k in keyed.indices {
            let i = Int(keyed[k].index)
            if k > 0, keyed[k - 1].samePrefix(keyed[k]), items[Int(keyed[k - 1].index)].id.utf8.elementsEqual(items[i].id.utf8) {
                rejects.append(Reject(layer: layer, sourceRow: row(items[i]), id: items[i].id, reason: "duplicate id (first at row \(row(items[first])))"))
                continue
            }
            first = i
            kept.append(keyed[k].index)
        }
        return kept
    }
}
