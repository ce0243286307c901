/// Lon/lat into the metric frame and back, on the workers, with the frame's own transverse
/// Mercator (no per-thread state: one value serves every worker).
extension LocalMetricFrame {
    /// Lon/lat points into this frame.
    func project(_ points: [Point2], pool: WorkerPool) -> [Point2] {
        let tm = transverseMercator
        return pool.map(points.count, chunkSize: 16_384) { _, i in tm.forward(points[i]) }
    }

    /// `count` footprints (`footprint(i)` each) into this frame, in one store (`copied`: as FootprintStore's).
    func project(count: Int, pool: WorkerPool, _ footprint: (Int) -> Footprint, copied: ((Int) -> Void)? = nil) -> FootprintStore {
        let tm = transverseMercator
        return FootprintStore(count: count, pool: pool, transform: tm.forward, footprint: footprint, copied: copied)
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
