/// The metric frame distances are measured in: a transverse Mercator (scale 1) centred on the data,
/// so that within a city or region a metre is a metre to well under 0.1%.
public struct LocalMetricFrame: Sendable, Hashable, Codable {
    public let centerLon: Double
    public let centerLat: Double

    public init(center: Point2) {
        // Rounded so the frame (and so every distance) does not depend on the last bits of a mean.
        centerLon = (center.x * 1e4).rounded() / 1e4
        centerLat = (center.y * 1e4).rounded() / 1e4
    }

    public var projString: String {
        "+proj=tmerc +lat_0=\(centerLat) +lon_0=\(centerLon) +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs +type=crs"
    }

    /// The projection itself, as the run computes it (PROJ's `projString` is what it agrees with, and
    /// what the report names).
    package var transverseMercator: TransverseMercator {
        TransverseMercator(centerLon: centerLon, centerLat: centerLat)
    }

    /// A PROJ transformer from lon/lat (WGS84) into this frame: the reference the run's own
    /// projection is tested against. Built from PROJ strings alone (no database look-up).
    func makeTransformer() throws(ProjectionError) -> CoordinateTransformer {
        try CoordinateTransformer(from: "+proj=longlat +ellps=WGS84 +no_defs +type=crs", to: projString)
    }

    /// The frame for a set of lon/lat boxes: centred on their combined extent.
    static func centred(on box: BBox) -> LocalMetricFrame {
        LocalMetricFrame(center: box.isEmpty ? Point2(x: 0, y: 0) : box.center)
    }
}
