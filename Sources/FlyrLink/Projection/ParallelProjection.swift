/// Transforms many coordinates through PROJ in parallel chunks, each worker thread with its own
/// transformer (a PROJ object is confined to one thread, and making one costs about a millisecond).
enum ParallelProjection {
    typealias MakeTransformer = @Sendable () throws(ProjectionError) -> CoordinateTransformer

    static func points(_ points: [Point2], pool: WorkerPool, inverse: Bool = false,
                       _ make: MakeTransformer) throws(ProjectionError) -> [Point2] {
        _ = try make()  // fail here, once, if PROJ cannot build the transformation
        let chunk = 16_384
        let parts = pool.map((points.count + chunk - 1) / chunk, chunkSize: 1, workerState: { try? make() }) { _, t, c -> [Point2] in
            var slice = Array(points[(c * chunk)..<min((c + 1) * chunk, points.count)])
            guard let t else { return slice.map { _ in Point2(x: .nan, y: .nan) } }
            if inverse { t.inverse(&slice) } else { t.forward(&slice) }
            return slice
        }
        return parts.flatMap { $0 }
    }

    /// Every point of every footprint: the points of a chunk of footprints gathered into one
    /// buffer for a single PROJ call (a call per footprint costs more than the arithmetic), then
    /// written back in place.
    static func footprints(_ footprints: [Footprint], pool: WorkerPool, _ make: MakeTransformer) throws(ProjectionError) -> [Footprint] {
        _ = try make()
        let chunk = 4096
        let parts = pool.map((footprints.count + chunk - 1) / chunk, chunkSize: 1, workerState: { try? make() }) { _, t, c -> [Footprint] in
            let slice = footprints[(c * chunk)..<min((c + 1) * chunk, footprints.count)]
            var flat: [Point2] = []
            flat.reserveCapacity(slice.reduce(0) { $0 + $1.pointCount })
            for f in slice { flat += f.points }
            if let t { t.forward(&flat) } else { flat = flat.map { _ in Point2(x: .nan, y: .nan) } }
            var offset = 0
            return slice.map { f in
                defer { offset += f.pointCount }
                return f.withPoints { pts in
                    for k in pts.indices { pts[k] = flat[offset + k] }
                }
            }
        }
        return parts.flatMap { $0 }
    }
}

extension LocalMetricFrame {
    /// Lon/lat points into this frame.
    func project(_ points: [Point2], pool: WorkerPool) throws(ProjectionError) -> [Point2] {
        try ParallelProjection.points(points, pool: pool) { () throws(ProjectionError) in try makeTransformer() }
    }

    func project(_ footprints: [Footprint], pool: WorkerPool) throws(ProjectionError) -> [Footprint] {
        try ParallelProjection.footprints(footprints, pool: pool) { () throws(ProjectionError) in try makeTransformer() }
    }

    /// Back from the frame to lon/lat (for geometry made in metres: repaired footprints, unit slices).
    func toLonLat(_ footprint: Footprint) -> Footprint {
        guard let t = try? makeTransformer() else { return footprint }
        return footprint.withPoints { t.inverse(&$0) }
    }
}
