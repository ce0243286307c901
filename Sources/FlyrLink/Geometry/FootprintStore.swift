import Glibc

/// Many footprints in two slabs (points; ring ends in `RingLayout`'s form) plus per-footprint starts,
/// read in place as `FootprintView`s by any number of threads: no allocation per footprint.
package final class FootprintStore: @unchecked Sendable {
    package let count: Int
    private let slabs: Slabs
    private var points: SlabBuffer<Point2> { slabs.points }
    private var pointStart: SlabBuffer<UInt32> { slabs.pointStart }
    private var ends: SlabBuffer<Int32> { slabs.ends }
    private var endStart: SlabBuffer<UInt32> { slabs.endStart }

    /// Footprint i's points are points[pointStart[i]..<pointStart[i + 1]] (32 bits: 4G points are more
    /// than a run can hold); its ring ends likewise in `ends`.
    fileprivate struct Slabs {
        var points = SlabBuffer<Point2>(count: 0)
        var pointStart = SlabBuffer<UInt32>(count: 1)
        var ends = SlabBuffer<Int32>(count: 0)
        var endStart = SlabBuffer<UInt32>(count: 1)

        func release() {
            points.release()
            pointStart.release()
            ends.release()
            endStart.release()
        }
    }

    /// Footprint `i`, read in place: valid while the store lives.
    @inline(__always)
    package subscript(i: Int) -> FootprintView {
        let p = Int(pointStart[i])..<Int(pointStart[i + 1]), e = Int(endStart[i])..<Int(endStart[i + 1])
        return FootprintView(points: points.slice(p), ends: ends.slice(e))
    }

    /// Footprint `i` as a footprint of its own (a copy).
    func footprint(_ i: Int) -> Footprint { self[i].footprint }

    var indices: Range<Int> { 0..<count }

    /// Every point moved by `transform`, in place, on the workers (a store nothing else reads in
    /// its old coordinates: a links-only run's lon/lat footprints become its metric ones).
    func movePoints(pool: WorkerPool, _ transform: (Point2) -> Point2) {
        pool.movePoints(points.all, transform)
    }

    /// Every point, in place, for code that transforms them in bulk (PROJ).
    func withMutablePoints<R, E: Error>(_ body: (UnsafeMutableBufferPointer<Point2>) throws(E) -> R) throws(E) -> R {
        try body(points.all)
    }

    /// `count` footprints, `footprint(i)` each, copied in with every point moved by `transform`, on the workers.
    convenience init(count: Int, pool: WorkerPool, transform: (Point2) -> Point2 = { $0 }, footprint: (Int) -> FootprintView) {
        self.init(count: count, sizes: { i in let f = footprint(i); return (f.points.count, f.layout.ends.count) }, pool: pool) { i, pts, ends in
            let f = footprint(i)
            for k in f.points.indices { pts[k] = transform(f.points[k]) }
            _ = ends.initialize(fromContentsOf: f.layout.ends)
        }
    }

    /// The footprints, appended in order (a few, or none: tests, a run that keeps no lon/lat).
    convenience init(_ footprints: [Footprint]) {
        let builder = Builder()
        for f in footprints { builder.append(f) }
        self.init(builder.take())
    }

    /// The footprints of `source` at `order` (indices into `source`; all, in order, when nil), with
    /// those in `replacing` (by their index in `source`) taken from there instead: a store put in
    /// id order, or what a run keeps after repairs and the territory's cut.
    /// `consumingSource`: the source is read no more, and its pages are handed back as the copy passes
    /// them (`PageCountdown`), so the two are never both at full size.
    package convenience init(_ source: FootprintStore, order: [Int32]?, replacing: [Int: Footprint] = [:], pool: WorkerPool,
                     consumingSource: Bool = false) {
        func view<R>(_ k: Int, _ body: (FootprintView) -> R) -> R {
            let i = order.map { Int($0[k]) } ?? k
            if let f = replacing[i] { return f.withView(body) }
            return body(source[i])
        }
        var countdown = consumingSource ? source.pageCountdowns() : nil
        func sourceIndex(_ k: Int) -> Int? {
            let i = order.map { Int($0[k]) } ?? k
            return replacing[i] == nil ? i : nil
        }
        if countdown != nil {
            // The reads to come counted in the source's own order (its offsets read in sequence):
            // every footprint when the order is a permutation (its indices are distinct), else those it names.
            var used = [Bool](repeating: order == nil || order!.count == source.count, count: source.count)
            if let order, order.count != source.count { for i in order { used[Int(i)] = true } }
            for i in replacing.keys { used[i] = false }
            for i in 0..<source.count where used[i] { source.read(i, &countdown!, done: false) }
        }
        self.init(count: order?.count ?? source.count, sizes: { k in view(k) { ($0.points.count, $0.layout.ends.count) } }, pool: pool,
                  afterBlock: countdown == nil ? nil : { block in for k in block { if let i = sourceIndex(k) { source.read(i, &countdown!, done: true) } } }
        ) { k, pts, ends in
            view(k) { v in
                _ = pts.initialize(fromContentsOf: v.points)
                _ = ends.initialize(fromContentsOf: v.layout.ends)
            }
        }
    }

    /// Countdowns over the points' and the ring ends' pages.
    private func pageCountdowns() -> (points: PageCountdown, ends: PageCountdown) {
        (PageCountdown(UnsafeBufferPointer(points.all)), PageCountdown(UnsafeBufferPointer(ends.all)))
    }

    /// Footprint i's bytes in the slabs, as a read to come or done.
    private func read(_ i: Int, _ countdown: inout (points: PageCountdown, ends: PageCountdown), done: Bool) {
        let p = Int(pointStart[i]) * MemoryLayout<Point2>.stride..<Int(pointStart[i + 1]) * MemoryLayout<Point2>.stride
        let e = Int(endStart[i]) * MemoryLayout<Int32>.stride..<Int(endStart[i + 1]) * MemoryLayout<Int32>.stride
        if done {
            countdown.points.done(p)
            countdown.ends.done(e)
        } else {
            countdown.points.expect(p)
            countdown.ends.expect(e)
        }
    }

    /// Sizes counted first (one allocation each for the points and the ends), then every footprint
    /// written into its place by `fill` on the workers.
    /// `afterBlock`: called after each block of 65,536 footprints is written, in order.
    private convenience init(count: Int, sizes: (Int) -> (points: Int, ends: Int), pool: WorkerPool,
                             afterBlock: ((Range<Int>) -> Void)? = nil,
                             fill: (Int, UnsafeMutableBufferPointer<Point2>, UnsafeMutableBufferPointer<Int32>) -> Void) {
        let pointStart = SlabBuffer<UInt32>(count: count + 1), endStart = SlabBuffer<UInt32>(count: count + 1)
        var p = 0, e = 0
        for i in 0..<count {
            pointStart[i] = UInt32(p)
            endStart[i] = UInt32(e)
            let (np, ne) = sizes(i)
            p += np
            e += ne
            precondition(p <= Int(UInt32.max) && e <= Int(UInt32.max), "a footprint store holds at most 4G points")
        }
        pointStart[count] = UInt32(p)
        endStart[count] = UInt32(e)
        let points = SlabBuffer<Point2>(count: p), ends = SlabBuffer<Int32>(count: e)
        let block = afterBlock == nil ? max(count, 1) : 65_536
        for lower in stride(from: 0, to: count, by: block) {
            let part = lower..<min(lower + block, count)
            pool.forEachRange(part.count, chunkSize: 4096) { stretch in
                for i in stretch.lazy.map({ $0 + lower }) {
                    fill(i, points.mutableSlice(Int(pointStart[i])..<Int(pointStart[i + 1])), ends.mutableSlice(Int(endStart[i])..<Int(endStart[i + 1])))
                }
            }
            afterBlock?(part)
        }
        self.init((count, Slabs(points: points, pointStart: pointStart, ends: ends, endStart: endStart)))
    }

    fileprivate init(_ parts: (count: Int, slabs: Slabs)) {
        count = parts.count
        slabs = parts.slabs
    }

    deinit { slabs.release() }

    /// Footprints appended one at a time, as a reader's batches arrive, into slabs that grow in
    /// place (a large block is remapped, not copied, so growing never holds two slabs at once).
    final class Builder {
        private var slabs = Slabs()
        private var pointCount = 0, endCount = 0
        private(set) var count = 0
        /// How many points the footprints appended hold.
        var points: Int { pointCount }
        private var taken = false

        init() {
            slabs.pointStart[0] = 0
            slabs.endStart[0] = 0
        }

        /// Appends `footprint`; its index in the store.
        @discardableResult
        func append(_ footprint: Footprint) -> Int {
            footprint.withView { v in
                precondition(pointCount + v.points.count <= Int(UInt32.max), "a footprint store holds at most 4G points")
                slabs.points.reserve(pointCount + v.points.count)
                _ = slabs.points.mutableSlice(pointCount..<(pointCount + v.points.count)).initialize(fromContentsOf: v.points)
                pointCount += v.points.count
                slabs.ends.reserve(endCount + v.layout.ends.count)
                _ = slabs.ends.mutableSlice(endCount..<(endCount + v.layout.ends.count)).initialize(fromContentsOf: v.layout.ends)
                endCount += v.layout.ends.count
            }
            slabs.pointStart.reserve(count + 2)
            slabs.endStart.reserve(count + 2)
            count += 1
            slabs.pointStart[count] = UInt32(pointCount)
            slabs.endStart[count] = UInt32(endCount)
            return count - 1
        }

        /// The store of everything appended (the builder is spent).
        func finish() -> FootprintStore { FootprintStore(take()) }

        /// The slabs cut to size, handed over once.
        fileprivate func take() -> (count: Int, slabs: Slabs) {
            precondition(!taken, "a footprint store builder is finished once")
            taken = true
            slabs.points.reserve(pointCount, exactly: true)
            slabs.ends.reserve(endCount, exactly: true)
            slabs.pointStart.reserve(count + 1, exactly: true)
            slabs.endStart.reserve(count + 1, exactly: true)
            return (count, slabs)
        }

        deinit {
            if !taken { slabs.release() }
        }
    }
}

/// A malloc'd block of trivial values that can grow in place (realloc); freed by its owner.
struct SlabBuffer<T>: @unchecked Sendable {
    private var base: UnsafeMutablePointer<T>?
    private(set) var count: Int

    init(count: Int) {
        self.count = count
        base = count == 0 ? nil : malloc(count * MemoryLayout<T>.stride)?.assumingMemoryBound(to: T.self)
        precondition(count == 0 || base != nil, "out of memory for \(count) values")
    }

    @inline(__always)
    subscript(i: Int) -> T {
        get { base![i] }
        nonmutating set { base![i] = newValue }
    }

    var all: UnsafeMutableBufferPointer<T> { UnsafeMutableBufferPointer(start: base, count: count) }

    @inline(__always)
    func slice(_ r: Range<Int>) -> UnsafeBufferPointer<T> { UnsafeBufferPointer(start: base.map { $0 + r.lowerBound }, count: r.count) }

    @inline(__always)
    func mutableSlice(_ r: Range<Int>) -> UnsafeMutableBufferPointer<T> { UnsafeMutableBufferPointer(start: base.map { $0 + r.lowerBound }, count: r.count) }

    /// Room for at least `n` values (half as much again as asked when growing, so appends cost
    /// amortized constant time), or exactly `n`.
    mutating func reserve(_ n: Int, exactly: Bool = false) {
        guard exactly ? n != count : n > count else { return }
        let capacity = exactly ? n : max(n, count + count / 2, 1024)
        if capacity == 0 {
            release()
            (base, count) = (nil, 0)
            return
        }
        let grown = realloc(base, capacity * MemoryLayout<T>.stride)
        precondition(grown != nil, "out of memory for \(capacity) values")
        base = grown!.assumingMemoryBound(to: T.self)
        count = capacity
    }

    /// Frees the block (the owner's last use of it).
    func release() { free(base) }
}
