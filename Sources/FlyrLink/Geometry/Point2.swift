/// A planar coordinate pair: lon/lat in degrees or x/y in metres, depending on the frame it lives in.
public struct Point2: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable
    public func distance(to other: Point2) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }

    public var isFinite: Bool { x.isFinite && y.isFinite }
}

/// An axis-aligned rectangle.
public struct BBox: Sendable, Hashable, Codable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The empty box: extending it with any point gives that point's box.
    /// (Computed, not a stored global: it is asked for once per footprint, and a global is checked
    /// for initialisation on every use.)
    @inlinable public static var empty: BBox { BBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity) }

    public var isEmpty: Bool { minX > maxX || minY > maxY }
    public var center: Point2 { Point2(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }
    /// The length of its diagonal (a building's extent, for a tile's halo).
    package var diagonal: Double { ((maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY)).squareRoot() }

    public mutating func extend(_ p: Point2) {
        if p.x < minX { minX = p.x }
        if p.y < minY { minY = p.y }
        if p.x > maxX { maxX = p.x }
        if p.y > maxY { maxY = p.y }
    }

    public mutating func extend(_ b: BBox) {
        if b.isEmpty { return }
        minX = Swift.min(minX, b.minX)
        minY = Swift.min(minY, b.minY)
        maxX = Swift.max(maxX, b.maxX)
        maxY = Swift.max(maxY, b.maxY)
    }

    public func expanded(by d: Double) -> BBox {
        BBox(minX: minX - d, minY: minY - d, maxX: maxX + d, maxY: maxY + d)
    }

    /// What lies in both (empty when they do not meet).
    public func intersection(_ o: BBox) -> BBox {
        BBox(minX: Swift.max(minX, o.minX), minY: Swift.max(minY, o.minY), maxX: Swift.min(maxX, o.maxX), maxY: Swift.min(maxY, o.maxY))
    }

    public func intersects(_ o: BBox) -> Bool {
        !(o.minX > maxX || o.maxX < minX || o.minY > maxY || o.maxY < minY)
    }

    public func contains(_ p: Point2) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }

    /// Distance from a point to the box (0 inside): a lower bound of the distance to anything in it.
    public func distance(to p: Point2) -> Double {
        let dx = Swift.max(minX - p.x, 0, p.x - maxX)
        let dy = Swift.max(minY - p.y, 0, p.y - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Distance between two boxes (0 when they meet): a lower bound of the distance between anything in them.
    public func distance(to o: BBox) -> Double {
        let dx = Swift.max(minX - o.maxX, 0, o.minX - maxX)
        let dy = Swift.max(minY - o.maxY, 0, o.minY - maxY)
        return (dx * dx + dy * dy).squareRoot()
    }
}
