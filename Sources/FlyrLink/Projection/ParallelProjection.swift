/// Transforms many coordinates through PROJ in parallel chunks, each worker thread with its own
/// transformer (a PROJ object is confined to one thread, and making one costs about a millisecond).
enum ParallelProjection {
    typealias MakeTransformer = @Sendable () throws(ProjectionError) -> CoordinateTransformer

    static func points(_ points: [Point2], pool: WorkerPool, _ make: MakeTransformer) throws(ProjectionError) -> [Point2] {
        var out = points
        try out.withUnsafeMutableBufferPointer { (all) throws(ProjectionError) in try inPlace(all, pool: pool, make) }
        return out
    }

    /// Every point of `points`, in place: a chunk at a time through each worker's transformer
    /// (all NaN in a chunk whose worker could not make one).
    static func inPlace(_ points: UnsafeMutableBufferPointer<Point2>, pool: WorkerPool, _ make: MakeTransformer) throws(ProjectionError) {
        _ = try make()  // fail here, once, if PROJ cannot build the transformation
        let chunk = 16_384
        let all = UncheckedBox(points)
        pool.forEachChunk((points.count + chunk - 1) / chunk, workerState: { try? make() }) { _, t, c in
            let lo = c * chunk
            var slice = Array(all.value[lo..<min(lo + chunk, all.value.count)])
            if let t { t.forward(&slice) } else { slice = slice.map { _ in Point2(x: .nan, y: .nan) } }
            for (k, p) in slice.enumerated() { all.value[lo + k] = p }
        }
    }
}
