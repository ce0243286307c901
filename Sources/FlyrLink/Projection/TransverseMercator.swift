import Foundation

/// The ellipsoidal transverse Mercator of the metric frame, computed here rather than through PROJ:
/// the same mathematics as PROJ's default `+proj=tmerc` (Poder/Engsager, Krüger's series to the
/// sixth order in the third flattening, accurate to well under a millimetre within thousands of
/// kilometres of the central meridian; Karney 2011, "Transverse Mercator with an accuracy of a few
/// nanometers"), without PROJ's per-point pipeline (unit conversion, 4-D coordinates, a step per
/// operation). Projecting every vertex of a million footprints went through PROJ at about 0.7 s.
///
/// A value type with no state beyond its constants: every worker uses it at once.
package struct TransverseMercator: Sendable {
    /// Semi-major axis (m) times the normalised meridian quadrant: metres per unit of the series.
    private let scale: Double
    /// Northing of the origin latitude (m), subtracted so that y is 0 there.
    private let originNorthing: Double
    private let centralMeridian: Double
    /// Geodetic → conformal latitude, conformal → geodetic (coefficients of sin 2jφ).
    private let toConformal: (Double, Double, Double, Double, Double, Double)
    private let toGeodetic: (Double, Double, Double, Double, Double, Double)
    /// Conformal sphere → ellipsoid (Krüger's α) and back (−β).
    private let alpha: (Double, Double, Double, Double, Double, Double)
    private let minusBeta: (Double, Double, Double, Double, Double, Double)

    private static let degree = Double.pi / 180
    /// Beyond this normalised easting (about 150° of longitude) the series no longer converge.
    private static let eastingLimit = 2.623395162778

    /// A frame on the WGS84 ellipsoid with scale 1 on the central meridian, no false origin.
    init(centerLon: Double, centerLat: Double, semiMajorAxis a: Double = 6_378_137, inverseFlattening: Double = 298.257223563) {
        let f = 1 / inverseFlattening
        let n = f / (2 - f)
        let n2 = n * n, n3 = n2 * n, n4 = n3 * n, n5 = n4 * n, n6 = n5 * n
        toConformal = (
            -2 * n + 2 / 3.0 * n2 + 4 / 3.0 * n3 - 82 / 45.0 * n4 + 32 / 45.0 * n5 + 4642 / 4725.0 * n6,
            5 / 3.0 * n2 - 16 / 15.0 * n3 - 13 / 9.0 * n4 + 904 / 315.0 * n5 - 1522 / 945.0 * n6,
            -26 / 15.0 * n3 + 34 / 21.0 * n4 + 8 / 5.0 * n5 - 12686 / 2835.0 * n6,
            1237 / 630.0 * n4 - 12 / 5.0 * n5 - 24832 / 14175.0 * n6,
            -734 / 315.0 * n5 + 109598 / 31185.0 * n6,
            444337 / 155925.0 * n6)
        toGeodetic = (
            2 * n - 2 / 3.0 * n2 - 2 * n3 + 116 / 45.0 * n4 + 26 / 45.0 * n5 - 2854 / 675.0 * n6,
            7 / 3.0 * n2 - 8 / 5.0 * n3 - 227 / 45.0 * n4 + 2704 / 315.0 * n5 + 2323 / 945.0 * n6,
            56 / 15.0 * n3 - 136 / 35.0 * n4 - 1262 / 105.0 * n5 + 73814 / 2835.0 * n6,
            4279 / 630.0 * n4 - 332 / 35.0 * n5 - 399572 / 14175.0 * n6,
            4174 / 315.0 * n5 - 144838 / 6237.0 * n6,
            601676 / 22275.0 * n6)
        alpha = (
            n / 2 - 2 / 3.0 * n2 + 5 / 16.0 * n3 + 41 / 180.0 * n4 - 127 / 288.0 * n5 + 7891 / 37800.0 * n6,
            13 / 48.0 * n2 - 3 / 5.0 * n3 + 557 / 1440.0 * n4 + 281 / 630.0 * n5 - 1983433 / 1935360.0 * n6,
            61 / 240.0 * n3 - 103 / 140.0 * n4 + 15061 / 26880.0 * n5 + 167603 / 181440.0 * n6,
            49561 / 161280.0 * n4 - 179 / 168.0 * n5 + 6601661 / 7257600.0 * n6,
            34729 / 80640.0 * n5 - 3418889 / 1995840.0 * n6,
            212378941 / 319334400.0 * n6)
        minusBeta = (
            -n / 2 + 2 / 3.0 * n2 - 37 / 96.0 * n3 + 1 / 360.0 * n4 + 81 / 512.0 * n5 - 96199 / 604800.0 * n6,
            -1 / 48.0 * n2 - 1 / 15.0 * n3 + 437 / 1440.0 * n4 - 46 / 105.0 * n5 + 1118711 / 3870720.0 * n6,
            -17 / 480.0 * n3 + 37 / 840.0 * n4 + 209 / 4480.0 * n5 - 5569 / 90720.0 * n6,
            -4397 / 161280.0 * n4 + 11 / 504.0 * n5 + 830251 / 7257600.0 * n6,
            -4583 / 161280.0 * n5 + 108847 / 3991680.0 * n6,
            -20648693 / 638668800.0 * n6)
        scale = a / (1 + n) * (1 + n2 * (1 / 4.0 + n2 * (1 / 64.0 + n2 / 256)))
        centralMeridian = centerLon * Self.degree
        // On the central meridian the conformal sphere's northing is the conformal latitude itself.
        let chi0 = Self.sineSeries(toConformal, centerLat * Self.degree)
        originNorthing = scale * Self.sineSeries(alpha, chi0)
    }

    /// Lon/lat (degrees) to metres east and north of the frame's centre; non-finite where the
    /// projection is not defined. Four transcendental calls a point (sincos twice, atan2, asinh):
    /// the other sines and cosines follow from these by exact identities.
    @inline(__always)
    package func forward(_ p: Point2) -> Point2 {
        let phi = p.y * Self.degree, lambda = p.x * Self.degree - centralMeridian
        guard abs(phi) <= Double.pi / 2, lambda.isFinite else { return Point2(x: .infinity, y: .infinity) }
        let sinPhi = sin(phi), cosPhi = cos(phi)
        // Conformal latitude χ = φ + δ, δ below 0.004 rad: sin δ and cos δ by their series (exact
        // to the last bit at that size), then sin χ and cos χ by the angle-sum formulas.
        let delta = Self.sineSeriesSum(toConformal, sin2: 2 * sinPhi * cosPhi, cos2: (cosPhi - sinPhi) * (cosPhi + sinPhi))
        let d2 = delta * delta
        let sinDelta = delta * (1 - d2 / 6 * (1 - d2 / 20 * (1 - d2 / 42 * (1 - d2 / 72))))
        let cosDelta = 1 - d2 / 2 * (1 - d2 / 12 * (1 - d2 / 30 * (1 - d2 / 56)))
        let sinChi = sinPhi * cosDelta + cosPhi * sinDelta, cosChi = cosPhi * cosDelta - sinPhi * sinDelta
        let sinLambda = sin(lambda), cosLambda = cos(lambda)
        // Conformal sphere: ξ' along the central meridian, η' across it (tan ξ' = sin χ / q,
        // sinh η' = t).
        let q = cosChi * cosLambda
        let r2 = sinChi * sinChi + q * q
        guard r2 > 0 else { return Point2(x: .infinity, y: .infinity) }  // the transverse aspect's pole
        let t = sinLambda * cosChi / r2.squareRoot()
        let xiPrime = atan2(sinChi, q), etaPrime = asinh(t)
        // sin 2ξ', cos 2ξ' from tan ξ'; sinh 2η' = 2t√(1+t²), cosh 2η' = 1 + 2t².
        let (xi, eta) = Self.complexSineSeries(alpha, xiPrime, etaPrime,
                                               sin2: 2 * sinChi * q / r2, cos2: (q - sinChi) * (q + sinChi) / r2,
                                               sinh2: 2 * t * (1 + t * t).squareRoot(), cosh2: 1 + 2 * t * t)
        guard abs(eta) <= Self.eastingLimit else { return Point2(x: .infinity, y: .infinity) }
        return Point2(x: scale * eta, y: scale * xi - originNorthing)
    }

    /// Metres in the frame back to lon/lat (degrees).
    @inline(__always)
    package func inverse(_ p: Point2) -> Point2 {
        let xi = (p.y + originNorthing) / scale, eta = p.x / scale
        guard abs(eta) <= Self.eastingLimit, xi.isFinite else { return Point2(x: .infinity, y: .infinity) }
        let em1 = expm1(2 * eta), e = em1 + 1  // sinh and cosh from one exponential, sinh exact near 0
        let (xiPrime, etaPrime) = Self.complexSineSeries(minusBeta, xi, eta, sin2: sin(2 * xi), cos2: cos(2 * xi),
                                                         sinh2: 0.5 * (em1 + em1 / e), cosh2: 0.5 * (e + 1 / e))
        // Back on the conformal sphere: the Gudermannian of η' gives the spherical longitude offset.
        let psi = atan(sinh(etaPrime))
        let sinXi = sin(xiPrime), cosXi = cos(xiPrime), sinPsi = sin(psi), cosPsi = cos(psi)
        let lambda = atan2(sinPsi, cosPsi * cosXi)
        let chi = atan2(sinXi * cosPsi, (sinPsi * sinPsi + cosPsi * cosPsi * cosXi * cosXi).squareRoot())
        let phi = Self.sineSeries(toGeodetic, chi)
        // Longitude within ±180° (a frame near the antimeridian), as PROJ gives it.
        var lon = lambda + centralMeridian
        if abs(lon) > Double.pi { lon -= 2 * Double.pi * (lon / (2 * Double.pi)).rounded() }
        return Point2(x: lon / Self.degree, y: phi / Self.degree)
    }

    /// θ + Σ c_j sin 2jθ.
    @inline(__always)
    private static func sineSeries(_ c: (Double, Double, Double, Double, Double, Double), _ theta: Double) -> Double {
        theta + sineSeriesSum(c, sin2: sin(2 * theta), cos2: cos(2 * theta))
    }

    /// Σ c_j sin 2jθ, given sin 2θ and cos 2θ, by Clenshaw's recurrence (unrolled:
    /// b_k = c_k + 2 cos 2θ · b_{k+1} − b_{k+2}, from b_6 = c_6 down to b_1; the sum is b_1 sin 2θ).
    @inline(__always)
    private static func sineSeriesSum(_ c: (Double, Double, Double, Double, Double, Double), sin2: Double, cos2: Double) -> Double {
        let twoCos = 2 * cos2
        let b6 = c.5
        let b5 = c.4 + twoCos * b6
        let b4 = c.3 + twoCos * b5 - b6
        let b3 = c.2 + twoCos * b4 - b5
        let b2 = c.1 + twoCos * b3 - b4
        let b1 = c.0 + twoCos * b2 - b3
        return b1 * sin2
    }

    /// ζ + Σ c_j sin 2jζ for complex ζ = ξ + iη, given the sine and cosine of 2ξ and the hyperbolic
    /// sine and cosine of 2η, by Clenshaw's recurrence in complex arithmetic
    /// (sin 2jζ = sin 2jξ cosh 2jη + i cos 2jξ sinh 2jη).
    @inline(__always)
    private static func complexSineSeries(_ c: (Double, Double, Double, Double, Double, Double), _ xi: Double, _ eta: Double,
                                          sin2 s: Double, cos2 co: Double, sinh2 sh: Double, cosh2 ch: Double) -> (Double, Double) {
        // r = 2 cos 2ζ
        let rr = 2 * co * ch, ri = -2 * s * sh
        var br = c.5, bi = 0.0, pr = 0.0, pi = 0.0
        @inline(__always) func step(_ ck: Double) {
            let nr = ck + rr * br - ri * bi - pr
            let ni = ri * br + rr * bi - pi
            pr = br; pi = bi
            br = nr; bi = ni
        }
        step(c.4); step(c.3); step(c.2); step(c.1); step(c.0)
        // sum = b_1 · sin 2ζ
        let sr = s * ch, si = co * sh
        return (xi + (sr * br - si * bi), eta + (sr * bi + si * br))
    }
}
