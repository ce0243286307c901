/// Many footprints kept together: every point in one slab, every footprint's ring ends (in
/// `RingLayout`'s form; none for the usual one-ring footprint) in another, and where each footprint
/// starts in both. Read as `FootprintView`s, in place, by any number of threads.
///
/// A million footprints as arrays of their own were a million allocations, each a 32-byte array
/// header and a malloc chunk beside its 85 bytes of points (117 MB of heap at 1M buildings for 85 MB
/// of coordinates), and an array of them 16 bytes a footprint more; here it is the points and 8 bytes.
final class FootprintStore: @unchecked Sendable {
    let count: Int
    private let points: UnsafeMutableBufferPointer<Point2>
    /// Footprint i's points are points[pointStart[i]..<pointStart[i + 1]] (32 bits: 4G points are
    /// 64 GB of coordinates, more than a run can hold).
    private let pointStart: UnsafeMutableBufferPointer<UInt32>
    private let ends: UnsafeMutableBufferPointer<Int32>
    private let endStart: UnsafeMutableBufferPointer<UInt32>

    /// Footprint `i`, read in place: valid while the store lives.
    @inline(__always)
    subscript(i: Int) -> FootprintView {
        let p = Int(pointStart[i])..<Int(pointStart[i + 1]), e = Int(endStart[i])..<Int(endStart[i + 1])
        return FootprintView(points: UnsafeBufferPointer(rebasing: points[p]), ends: UnsafeBufferPointer(rebasing: ends[e]))
    }

    /// Footprint `i` as a footprint of its own (a copy).
    func footprint(_ i: Int) -> Footprint { self[i].footprint }

    var indices: Range<Int> { 0..<count }

    /// `count` footprints, `footprint(i)` each, copied in with every point moved by `transform`,
    /// on the workers; `copied(i)` is told when footprint i is in (a links-only run frees its
    /// lon/lat footprint there: freed among the copying, the frees cost a fraction of a loop of their own).
    convenience init(count: Int, pool: WorkerPool, transform: (Point2) -> Point2 = { $0 }, footprint: (Int) -> Footprint,
                     copied: ((Int) -> Void)? = nil) {
        self.init(count: count, sizes: { i in let f = footprint(i); return (f.pointCount, f.ends.count) }, pool: pool) { i, pts, ends in
            do {
                let f = footprint(i)
                f.points.withUnsafeBufferPointer { src in
                    for k in src.indices { pts[k] = transform(src[k]) }
                }
                _ = f.ends.withUnsafeBufferPointer { ends.initialize(fromContentsOf: $0) }
            }
            copied?(i)
        }
    }

    convenience init(_ footprints: [Footprint], pool: WorkerPool = WorkerPool(threads: 1)) {
        self.init(count: footprints.count, pool: pool) { footprints[$0] }
    }

    /// The footprints of `source` that `keep` says to keep (all when nil), in order, with those in
    /// `replacing` (by their index in `source`) taken from there instead: what a run keeps after
    /// repairs and the territory's cut.
    convenience init(_ source: FootprintStore, keeping keep: [Bool]?, replacing: [Int: Footprint], pool: WorkerPool) {
        let kept = keep.map { k in k.indices.filter { k[$0] } } ?? Array(source.indices)
        func view<R>(_ i: Int, _ body: (FootprintView) -> R) -> R {
            if let f = replacing[i] { return f.withView(body) }
            return body(source[i])
        }
        self.init(count: kept.count, sizes: { k in view(kept[k]) { ($0.points.count, $0.layout.ends.count) } }, pool: pool) { k, pts, ends in
            view(kept[k]) { v in
                _ = pts.initialize(fromContentsOf: v.points)
                _ = ends.initialize(fromContentsOf: v.layout.ends)
            }
        }
    }

    /// Sizes counted first (one allocation each for the points and the ends), then every footprint
    /// written into its place by `fill` on the workers.
    private init(count: Int, sizes: (Int) -> (points: Int, ends: Int), pool: WorkerPool,
                 fill: (Int, UnsafeMutableBufferPointer<Point2>, UnsafeMutableBufferPointer<Int32>) -> Void) {
        self.count = count
        pointStart = .allocate(capacity: count + 1)
        endStart = .allocate(capacity: count + 1)
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
        points = .allocate(capacity: p)
        ends = .allocate(capacity: e)
        let (points, ends, pointStart, endStart) = (points, ends, pointStart, endStart)
        pool.forEachRange(count, chunkSize: 4096) { stretch in
            for i in stretch {
                fill(i, UnsafeMutableBufferPointer(rebasing: points[Int(pointStart[i])..<Int(pointStart[i + 1])]),
                     UnsafeMutableBufferPointer(rebasing: ends[Int(endStart[i])..<Int(endStart[i + 1])]))
            }
        }
    }

    deinit {
        points.deallocate()
        pointStart.deallocate()
        ends.deallocate()
        endStart.deallocate()
    }
}
