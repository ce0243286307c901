/// Projects the run's lon/lat geometry into its local metric frame, in parallel chunks.
enum MetricProjection {
    static func points(_ points: [Point2], frame: LocalMetricFrame, pool: WorkerPool) throws(ProjectionError) -> [Point2] {
        _ = try frame.makeTransformer()  // fail here, once, if PROJ cannot build the frame
        let chunk = 8192
        let parts = pool.map((points.count + chunk - 1) / chunk, chunkSize: 1) { _, c -> [Point2] in
            var slice = Array(points[(c * chunk)..<min((c + 1) * chunk, points.count)])
            guard let t = try? frame.makeTransformer() else { return slice.map { _ in Point2(x: .nan, y: .nan) } }
            t.forward(&slice)
            return slice
        }
        return parts.flatMap { $0 }
    }

    static func footprints(_ footprints: [Footprint], frame: LocalMetricFrame, pool: WorkerPool) throws(ProjectionError) -> [Footprint] {
        _ = try frame.makeTransformer()
        let chunk = 4096
        let parts = pool.map((footprints.count + chunk - 1) / chunk, chunkSize: 1) { _, c -> [Footprint] in
            let t = try? frame.makeTransformer()
            return footprints[(c * chunk)..<min((c + 1) * chunk, footprints.count)].map { f in
                Footprint(polygons: f.polygons.map { poly in
                    Polygon(rings: poly.rings.map { ring in
                        var r = ring
                        if let t { t.forward(&r) } else { r = r.map { _ in Point2(x: .nan, y: .nan) } }
                        return r
                    })
                })
            }
        }
        return parts.flatMap { $0 }
    }

    /// Back from the frame to lon/lat (for geometry made in metres: repaired footprints, unit slices).
    static func toLonLat(_ footprint: Footprint, frame: LocalMetricFrame) -> Footprint {
        guard let t = try? frame.makeTransformer() else { return footprint }
        return Footprint(polygons: footprint.polygons.map { poly in
            Polygon(rings: poly.rings.map { ring in
                var r = ring
                t.inverse(&r)
                return r
            })
        })
    }
}
