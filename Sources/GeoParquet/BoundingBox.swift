/// An axis-aligned 2D bounding box.
public struct BoundingBox: Sendable, Equatable, CustomStringConvertible {
    public var xmin: Double
    public var ymin: Double
    public var xmax: Double
    public var ymax: Double

    public init(xmin: Double, ymin: Double, xmax: Double, ymax: Double) {
        self.xmin = xmin
        self.ymin = ymin
        self.xmax = xmax
        self.ymax = ymax
    }

    /// True when the boxes overlap or touch. Boxes with NaN never intersect.
    @inline(__always)
    public func intersects(_ o: BoundingBox) -> Bool {
        xmin <= o.xmax && o.xmin <= xmax && ymin <= o.ymax && o.ymin <= ymax
    }

    public func contains(x: Double, y: Double) -> Bool {
        x >= xmin && x <= xmax && y >= ymin && y <= ymax
    }

    public var description: String { "[\(xmin), \(ymin), \(xmax), \(ymax)]" }
}
