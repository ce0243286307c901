/// Affine metres → degrees around an origin. Deliberately affine (not a true
/// projection) so a point lying on a wall in metres still lies on that wall in
/// lon/lat, up to float and print rounding.
public struct LocalProjection: Sendable {
    public let originLon: Double
    public let originLat: Double
    public let metresPerDegreeLon: Double
    public let metresPerDegreeLat: Double = 110_540

    public init(originLon: Double, originLat: Double) {
        self.originLon = originLon
        self.originLat = originLat
        metresPerDegreeLon = 111_320 * cos(originLat * Double.pi / 180)
    }

    public func lon(_ x: Double) -> Double { originLon + x / metresPerDegreeLon }
    public func lat(_ y: Double) -> Double { originLat + y / metresPerDegreeLat }

    /// Inverse mapping, for checks that want metres back from printed coordinates.
    public func metres(lon: Double, lat: Double) -> Point {
        Point((lon - originLon) * metresPerDegreeLon, (lat - originLat) * metresPerDegreeLat)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
