/// Byte order of ids: the order every output is written in. Made quick for millions of rows: the
/// first 16 bytes of each id, as two big-endian integers, settle almost every comparison.
enum IDOrder {
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Never disagrees with `precedes`: a < b in bytes gives key(a) <= key(b) (short ids are padded
    /// with 0, the smallest byte).
    static func key(_ s: String) -> (UInt64, UInt64) {
        var hi: UInt64 = 0, lo: UInt64 = 0, i = 0
        for b in s.utf8 {
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

    /// Indices `0..<count` in byte order of their ids (`id(i)`), each with its first 16 bytes;
    /// equal ids keep their index order. The ids are read where they are (at 10M rows an array
    /// of them was 160 MB of fresh pages); ids sharing their first 16 bytes are read again.
    static func sorted(count: Int, id: (Int) -> String) -> [Keyed] {
        var keyed = [Keyed](unsafeUninitializedCapacity: count) { buffer, initialized in
            for i in 0..<count {
                let (hi, lo) = key(id(i))
                buffer.initializeElement(at: i, to: Keyed(hi: hi, lo: lo, index: Int32(i)))
            }
            initialized = count
        }
        // (The row breaks ties, so the order is total. The standard sort finds runs: a source
        // already in id order costs one pass.)
        keyed.sort()
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
    static func sortUnique<T: Ingest.Identified>(_ items: inout [T], layer: String, rejects: inout [Reject]) {
        // (Through the protocol, not key paths: a key path per row is a runtime call.)
        func row(_ item: T) -> Int { item.sourceRow }
        let keyed = sorted(count: items.count) { items[$0].id }
        // In id order, a repeat is an id equal to the one before it (ties keep source order).
        var repeated = [Bool](repeating: false, count: keyed.count)
        var first = 0, repeats = 0
        for k in keyed.indices {
            let i = Int(keyed[k].index)
            if k > 0, keyed[k - 1].samePrefix(keyed[k]), items[Int(keyed[k - 1].index)].id.utf8.elementsEqual(items[i].id.utf8) {
                rejects.append(Reject(layer: layer, sourceRow: row(items[i]), id: items[i].id, reason: "duplicate id (first at row \(row(items[first])))"))
                repeated[k] = true
                repeats += 1
                continue
            }
            first = i
        }
        let ordered = items.withUnsafeMutableBufferPointer { rows in
            [T](unsafeUninitializedCapacity: keyed.count - repeats) { out, initialized in
                // (The rows in id order are read by index in every later stage.)
                if let base = out.baseAddress { HugePages.advise(UnsafeMutableRawPointer(base), bytes: out.count * MemoryLayout<T>.stride) }
                var n = 0
                for k in keyed.indices where !repeated[k] {
                    let source = rows.baseAddress! + Int(keyed[k].index)
                    out.initializeElement(at: n, to: source.move())
                    source.initialize(to: T.vacant)  // the old array still owns the slot
                    n += 1
                }
                initialized = n
            }
        }
        items = ordered
    }
}
