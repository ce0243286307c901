/// Sorting a large array on the workers: equal parts sorted at once, then merged. For a total
/// order (ties broken by an index) the result is the one sorted array, whatever the thread count.
enum ParallelSort {
    /// Below this many elements one thread sorts alone: the merge would cost more than it saves.
    static let minimumParallelCount = 65_536

    static func sort<T: Comparable>(_ items: inout [T], pool: WorkerPool) {
        let parts = pool.threadCount
        guard parts > 1, items.count >= minimumParallelCount else { items.sort(); return }
        let n = items.count
        let bounds = (0...parts).map { $0 * n / parts }
        items.withUnsafeMutableBufferPointer { all in
            let base = all.baseAddress!
            pool.forEachChunk(parts) { _, p in
                var part = UnsafeMutableBufferPointer(start: base + bounds[p], count: bounds[p + 1] - bounds[p])
                part.sort()
            }
        }
        // Sorted runs merged pairwise until one is left.
        var runs = zip(bounds, bounds.dropFirst()).map { $0.0..<$0.1 }
        var source = items
        var target = items
        while runs.count > 1 {
            var merged: [Range<Int>] = []
            source.withUnsafeBufferPointer { src in
                target.withUnsafeMutableBufferPointer { dst in
                    var r = 0
                    while r < runs.count {
                        guard r + 1 < runs.count else {
                            for i in runs[r] { dst[i] = src[i] }
                            merged.append(runs[r]); r += 1; continue
                        }
                        let a = runs[r], b = runs[r + 1]
                        var i = a.lowerBound, j = b.lowerBound, k = a.lowerBound
                        while i < a.upperBound && j < b.upperBound {
                            if src[j] < src[i] { dst[k] = src[j]; j += 1 } else { dst[k] = src[i]; i += 1 }
                            k += 1
                        }
                        while i < a.upperBound { dst[k] = src[i]; i += 1; k += 1 }
                        while j < b.upperBound { dst[k] = src[j]; j += 1; k += 1 }
                        merged.append(a.lowerBound..<b.upperBound)
                        r += 2
                    }
                }
            }
            runs = merged
            swap(&source, &target)
        }
        items = source
    }
}

/// A value with the index of the item it belongs to, ordered by value, then index: a total order,
/// so sorting these gives one result whatever the algorithm or thread count.
struct IndexedKey<Key: Comparable>: Comparable {
    var key: Key
    var index: Int32

    static func < (a: IndexedKey, b: IndexedKey) -> Bool {
        a.key != b.key ? a.key < b.key : a.index < b.index
    }
}
