/// Lon/lat into the metric frame and back, on the workers, with the frame's own transverse
/// Mercator (no per-thread state: one value serves every worker).
extension LocalMetricFrame {
    /// Lon/lat points into this frame.
    func project(_ points: [Point2], pool: WorkerPool) -> [Point2] {
        let tm = transverseMercator
        return pool.map(points.count, chunkSize: 16_384) { _, i in tm.forward(points[i]) }
    }

    /// Lon/lat points into this frame: moved in place, the array handed over and left empty
    /// (nothing reads them in lon/lat any more), or copied, the array left as it was.
    func project(_ points: inout [Point2], inPlace: Bool, pool: WorkerPool) -> [Point2] {
        guard inPlace else { return project(points, pool: pool) }
        let tm = transverseMercator
        var moved: [Point2] = []
        swap(&moved, &points)
        moved.withUnsafeMutableBufferPointer { pool.movePoints($0, tm.forward) }
        return moved
    }

    /// A store's footprints into this frame: moved in place (nothing reads them in lon/lat any
    /// more), or copied into a store of their own.
    func project(_ footprints: FootprintStore, inPlace: Bool, pool: WorkerPool) -> FootprintStore {
        let tm = transverseMercator
        if inPlace {
            footprints.movePoints(pool: pool, tm.forward)
            return footprints
        }
        return FootprintStore(count: footprints.count, pool: pool, transform: tm.forward) { footprints[$0] }
    }

    /// One footprint into this frame (a territory).
    func toMetric(_ footprint: Footprint) -> Footprint { moved(footprint, by: transverseMercator.forward) }

    /// Back from the frame to lon/lat (geometry made in metres: repaired footprints, unit slices).
    func toLonLat(_ footprint: Footprint) -> Footprint { moved(footprint, by: transverseMercator.inverse) }

    private func moved(_ footprint: Footprint, by transform: (Point2) -> Point2) -> Footprint {
        var f = footprint
        f.movePoints(transform)
        return f
    }
}
