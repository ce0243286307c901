internal import CGEOS

/// Tests footprints and points against the territory polygon (metric frame), in parallel.
struct TerritoryFilter {
    var area: Footprint

    func intersecting(_ footprints: FootprintStore, pool: WorkerPool) -> [Bool] {
        let box = area.bbox
        return perWorker(footprints.count, pool: pool) { ctx, territory, i in
            guard footprints[i].bbox.intersects(box), let g = try? ctx.geometry(footprints.footprint(i)) else { return false }
            return GEOSPreparedIntersects_r(ctx.handle, territory, g.handle) == 1
        }
    }

    func covering(_ points: [Point2], pool: WorkerPool) -> [Bool] {
        let box = area.bbox
        return perWorker(points.count, pool: pool) { ctx, territory, i in
            guard box.contains(points[i]), let g = try? ctx.point(points[i]) else { return false }
            return GEOSPreparedCovers_r(ctx.handle, territory, g.handle) == 1
        }
    }

    /// Each chunk prepares its own copy of the territory in its worker's context.
    private func perWorker(_ count: Int, pool: WorkerPool, _ test: (GEOSContext, OpaquePointer, Int) -> Bool) -> [Bool] {
        let chunk = 4096
        let parts = pool.map((count + chunk - 1) / chunk, chunkSize: 1) { ctx, c -> [Bool] in
            guard let geom = try? ctx.geometry(area), let prepared = GEOSPrepare_r(ctx.handle, geom.handle) else {
                return [Bool](repeating: false, count: min(chunk, count - c * chunk))
            }
            defer { GEOSPreparedGeom_destroy_r(ctx.handle, prepared) }
            return ((c * chunk)..<min((c + 1) * chunk, count)).map { test(ctx, prepared, $0) }
        }
        return parts.flatMap { $0 }
    }
}
