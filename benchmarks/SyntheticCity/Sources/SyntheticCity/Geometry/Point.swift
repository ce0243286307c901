/// A position in local metres: x east, y north (or a parcel's along/away axes).
public struct Point: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// Point at fraction t along the segment a→b; used to put address points exactly on walls.
    public static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point {
        Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }
}

/// Axis-aligned rectangle in some local frame.
struct Rect {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    var width: Double { maxX - minX }
    var height: Double { maxY - minY }

    var corners: [Point] {
        [Point(minX, minY), Point(maxX, minY), Point(maxX, maxY), Point(minX, maxY)]
    }

    func inset(by d: Double) -> Rect {
        Rect(minX: minX + d, minY: minY + d, maxX: maxX - d, maxY: maxY - d)
    }

    static func bounding(_ points: [Point]) -> Rect {
        var r = Rect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for p in points {
            r.minX = min(r.minX, p.x); r.maxX = max(r.maxX, p.x)
            r.minY = min(r.minY, p.y); r.maxY = max(r.maxY, p.y)
        }
        return r
    }
}

/// Rotation about the origin followed by a translation; places a building drawn
/// around its own centre into its parcel.
struct RigidTransform {
    var cosA: Double = 1
    var sinA: Double = 0
    var dx: Double = 0
    var dy: Double = 0

    init(angleRadians: Double = 0, dx: Double = 0, dy: Double = 0) {
        if angleRadians != 0 {
            cosA = cos(angleRadians)
            sinA = sin(angleRadians)
        }
        self.dx = dx
        self.dy = dy
    }

    func apply(_ p: Point) -> Point {
        Point(p.x * cosA - p.y * sinA + dx, p.x * sinA + p.y * cosA + dy)
    }

    func translated(_ tx: Double, _ ty: Double) -> RigidTransform {
        var t = self
        t.dx += tx
        t.dy += ty
        return t
    }
}

enum Polygon {
    /// Shoelace signed area: positive for counter-clockwise rings.
    static func signedArea(_ ring: [Point]) -> Double {
        var sum = 0.0
        var j = ring.count - 1
        for i in 0..<ring.count {
            sum += (ring[j].x * ring[i].y) - (ring[i].x * ring[j].y)
            j = i
        }
        return sum / 2
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
