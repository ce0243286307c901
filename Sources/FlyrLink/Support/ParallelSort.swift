/// Sorting a large array on the workers: equal parts sorted at once, then merged in place. For a total
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
        // Sorted runs merged pairwise until one is left, in place: each left run is copied out and
        // merged with its right neighbour from the front (the writes never pass the right run's
        // reads), so the sort holds half the array again at most, not all of it.
        var runs = zip(bounds, bounds.dropFirst()).map { $0.0..<$0.1 }
        while runs.count > 1 {
            // The pairs of this round, and where each one's left run goes in the scratch.
            var pairs: [(left: Range<Int>, right: Range<Int>, at: Int)] = [], merged: [Range<Int>] = [], scratchCount = 0
            var r = 0
            while r < runs.count {
                guard r + 1 < runs.count else { merged.append(runs[r]); r += 1; continue }
                pairs.append((runs[r], runs[r + 1], scratchCount))
                scratchCount += runs[r].count
                merged.append(runs[r].lowerBound..<runs[r + 1].upperBound)
                r += 2
            }
            let scratch = UnsafeMutableBufferPointer<T>.allocate(capacity: scratchCount)
            items.withUnsafeMutableBufferPointer { all in
                let shared = UncheckedBox((all, scratch))
                pool.forEachChunk(pairs.count) { _, p in
                    merge(shared.value.0, left: pairs[p].left, right: pairs[p].right, scratch: shared.value.1.baseAddress! + pairs[p].at)
                }
            }
            scratch.deallocate()
            runs = merged
        }
    }

    /// `all[left]` and `all[right]` (adjacent, each sorted) merged into their place, the left run
    /// copied to `scratch` first. (For plain values: keys and indices, copied as bytes.)
    private static func merge<T: Comparable>(_ all: UnsafeMutableBufferPointer<T>, left: Range<Int>, right: Range<Int>,
                                             scratch copy: UnsafeMutablePointer<T>) {
        precondition(_isPOD(T.self), "ParallelSort sorts plain values")
        let base = all.baseAddress!
        copy.initialize(from: base + left.lowerBound, count: left.count)
        var i = 0, j = right.lowerBound, k = left.lowerBound
        while i < left.count && j < right.upperBound {
            if base[j] < copy[i] { base[k] = base[j]; j += 1 } else { base[k] = copy[i]; i += 1 }
            k += 1
        }
        while i < left.count { base[k] = copy[i]; i += 1; k += 1 }
        // (What is left of the right run is already in place.)
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
