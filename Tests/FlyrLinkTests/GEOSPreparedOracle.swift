import CGEOS
@testable import FlyrLink

/// GEOS's prepared covers and nearest points, the reference the project's own point measures
/// (Geometry/FootprintPointMeasures.swift) are checked against.
final class PreparedFootprint {
    let geometry: GEOSGeometry
    private let prepared: OpaquePointer
    private var context: GEOSContext { geometry.context }

    init(_ geometry: GEOSGeometry) throws(GEOSError) {
        self.geometry = geometry
        geometry.context.resetError()
        guard let p = GEOSPrepare_r(geometry.context.handle, geometry.handle) else {
            throw geometry.context.error("Prepare")
        }
        prepared = p
    }

    deinit {
        GEOSPreparedGeom_destroy_r(context.handle, prepared)
    }

    /// Boundary-inclusive containment: an entrance node on the outline counts.
    func covers(_ point: GEOSGeometry) -> Bool {
        GEOSPreparedCovers_r(context.handle, prepared, point.handle) == 1
    }

    /// Distance and the nearest point on the footprint to `point` (0 and the point itself when inside).
    func nearest(_ point: GEOSGeometry) throws(GEOSError) -> (distance: Double, onFootprint: Point2) {
        context.resetError()
        guard let seq = GEOSPreparedNearestPoints_r(context.handle, prepared, point.handle) else {
            throw context.error("PreparedNearestPoints")
        }
        defer { GEOSCoordSeq_destroy_r(context.handle, seq) }
        var x = 0.0, y = 0.0, px = 0.0, py = 0.0
        GEOSCoordSeq_getXY_r(context.handle, seq, 0, &x, &y)
        GEOSCoordSeq_getXY_r(context.handle, seq, 1, &px, &py)
        let onFootprint = Point2(x: x, y: y)
        return (onFootprint.distance(to: Point2(x: px, y: py)), onFootprint)
    }
}

extension GEOSContext {
    /// GEOS's Distance, the reference for Footprint.distance(to:).
    func distance(_ a: GEOSGeometry, _ b: GEOSGeometry) -> Double {
        var d = Double.infinity
        if GEOSDistance_r(handle, a.handle, b.handle, &d) != 1 { return .infinity }
        return d
    }
}
