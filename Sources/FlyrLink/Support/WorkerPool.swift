import Foundation

/// The run's worker threads, each with its own GEOS context made once and reused by every stage
/// (shapely's model: one context per thread, never one per call). Work is split into chunks that
/// workers take in turn; each chunk's results go to its own slots, so the output never depends
/// on which thread did what, or on how many there were.
package final class WorkerPool: @unchecked Sendable {
    let threadCount: Int
    private let contexts: [GEOSContext]

    package init(threads: Int) {
        threadCount = max(1, threads)
        contexts = (0..<max(1, threads)).map { _ in GEOSContext() }
    }

    /// Runs `body(context, chunk)` for every chunk in 0..<chunkCount, on up to `threadCount` threads.
    func forEachChunk(_ chunkCount: Int, _ body: (GEOSContext, Int) -> Void) {
        forEachChunk(chunkCount, workerState: { () }) { context, _, chunk in body(context, chunk) }
    }

    /// As `forEachChunk`, with state made once per worker thread (a PROJ transformer: costly to
    /// make, confined to one thread) and passed to each of its chunks.
    func forEachChunk<S>(_ chunkCount: Int, workerState: () -> S, _ body: (GEOSContext, inout S, Int) -> Void) {
        guard chunkCount > 0 else { return }
        let next = ChunkCounter()
        let workers = min(threadCount, chunkCount)
        withoutActuallyEscaping(body) { body in
            withoutActuallyEscaping(workerState) { workerState in
                let box = UncheckedBox((body, workerState))
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    let context = contexts[w]
                    var state = box.value.1()
                    while let chunk = next.take(below: chunkCount) {
                        box.value.0(context, &state, chunk)
                    }
                }
            }
        }
    }

    /// As `map`, with state made once per worker thread (see `forEachChunk(_:workerState:_:)`).
    package func map<T, S>(_ count: Int, chunkSize: Int = 1024, workerState: () -> S, _ transform: (GEOSContext, inout S, Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let chunks = (count + chunkSize - 1) / chunkSize
        return ResultSlots<T>.collect(count) { slots in
            forEachChunk(chunks, workerState: workerState) { ctx, state, chunk in
                let lo = chunk * chunkSize
                for i in lo..<min(lo + chunkSize, count) { slots.set(i, transform(ctx, &state, i)) }
            }
        }
    }

    /// Maps 0..<count to results in index order, computed in chunks on the workers.
    package func map<T>(_ count: Int, chunkSize: Int = 1024, _ transform: (GEOSContext, Int) -> T) -> [T] {
        map(count, chunkSize: chunkSize, workerState: { () }) { ctx, _, i in transform(ctx, i) }
    }
}

extension WorkerPool {
    /// Runs `body` for consecutive stretches of 0..<count, `chunkSize` long (the last shorter), on the workers.
    func forEachRange(_ count: Int, chunkSize: Int, _ body: (Range<Int>) -> Void) {
        forEachChunk((count + chunkSize - 1) / chunkSize) { _, c in body(c * chunkSize..<min((c + 1) * chunkSize, count)) }
    }

    /// Every point of `points` replaced by `transform` of it, in place, in stretches on the workers.
    func movePoints(_ points: UnsafeMutableBufferPointer<Point2>, _ transform: (Point2) -> Point2) {
        let shared = UncheckedBox(points)
        forEachRange(points.count, chunkSize: 65_536) { stretch in
            for k in stretch { shared.value[k] = transform(shared.value[k]) }
        }
    }

    /// `transform(i)` for every i where `include(i)`, in index order, sized exactly (chunks counted,
    /// then filled); pages first touched by both threads, as fresh pages are slow on a virtual machine.
    func compactMap<T>(_ count: Int, chunkSize: Int = 65_536, where include: (Int) -> Bool, _ transform: (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let chunks = (count + chunkSize - 1) / chunkSize
        func stretch(_ c: Int) -> Range<Int> { c * chunkSize..<min((c + 1) * chunkSize, count) }
        let counts = map(chunks, chunkSize: 1) { _, c in stretch(c).reduce(0) { include($1) ? $0 + 1 : $0 } }
        var offsets = [Int](repeating: 0, count: chunks + 1)
        for c in 0..<chunks { offsets[c + 1] = offsets[c] + counts[c] }
        return ResultSlots<T>.collect(offsets[chunks]) { slots in
            forEachChunk(chunks) { _, c in
                var at = offsets[c]
                for i in stretch(c) where include(i) {
                    slots.set(at, transform(i))
                    at += 1
                }
            }
        }
    }
}

/// Hands out chunk numbers once each.
final class ChunkCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// The elements of an array under construction, each written exactly once, from any thread:
/// they are initialized in the array's own storage, so a result of a million values is never
/// held twice (as optionals first, then copied out).
struct ResultSlots<T>: @unchecked Sendable {
    private let base: UnsafeMutablePointer<T>

    func set(_ i: Int, _ value: T) { (base + i).initialize(to: value) }

    /// An array of `count` elements; `fill` must set every index once (and no other).
    static func collect(_ count: Int, _ fill: (ResultSlots<T>) -> Void) -> [T] {
        guard count > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(ResultSlots(base: buffer.baseAddress!))
            initialized = count
        }
    }
}

struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
