/// Transforms many coordinates through PROJ in parallel chunks, each worker thread with its own
/// transformer (a PROJ object is confined to one thread, and making one costs about a millisecond).
enum ParallelProjection {
    typealias MakeTransformer = @Sendable () throws(ProjectionError) -> CoordinateTransformer

    static func points(_ points: [Point2], pool: WorkerPool, inverse: Bool = false,
                       _ make: MakeTransformer) throws(ProjectionError) -> [Point2] {
        _ = try make()  // fail here, once, if PROJ cannot build the transformation
        let chunk = 16_384
        return ResultSlots<Point2>.collect(points.count) { slots in
            pool.forEachChunk((points.count + chunk - 1) / chunk, workerState: { try? make() }) { _, t, c in
                let lo = c * chunk
                var slice = Array(points[lo..<min(lo + chunk, points.count)])
                if let t {
                    if inverse { t.inverse(&slice) } else { t.forward(&slice) }
                } else {
                    slice = slice.map { _ in Point2(x: .nan, y: .nan) }
                }
                for (k, p) in slice.enumerated() { slots.set(lo + k, p) }
            }
        }
    }

    /// Every point of every footprint: the points of a chunk of footprints gathered into one
    /// buffer for a single PROJ call (a call per footprint costs more than the arithmetic), then
    /// written back in place.
    static func footprints(_ footprints: [Footprint], pool: WorkerPool, _ make: MakeTransformer) throws(ProjectionError) -> [Footprint] {
        _ = try make()
        let chunk = 4096
        return ResultSlots<Footprint>.collect(footprints.count) { slots in
            pool.forEachChunk((footprints.count + chunk - 1) / chunk, workerState: { try? make() }) { _, t, c in
                let lo = c * chunk
                let slice = footprints[lo..<min(lo + chunk, footprints.count)]
                var flat: [Point2] = []
                flat.reserveCapacity(slice.reduce(0) { $0 + $1.pointCount })
                for f in slice { flat += f.points }
                if let t { t.forward(&flat) } else { flat = flat.map { _ in Point2(x: .nan, y: .nan) } }
                var offset = 0
                for (k, f) in zip(slice.indices, slice) {
                    slots.set(k, f.withPoints { pts in
                        for j in pts.indices { pts[j] = flat[offset + j] }
                    })
                    offset += f.pointCount
                }
            }
        }
    }
}
