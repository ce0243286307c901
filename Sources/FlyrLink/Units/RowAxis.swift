/// The long axis of a footprint from GEOS's minimum rotated rectangle: the direction a row of
/// townhomes runs along, with the rectangle's centre and its short side.
struct RowAxis {
    var center: Point2
    /// Unit vector along the longer side.
    var axis: Point2
    var length: Double
    var width: Double

    static func of(_ footprint: Footprint, context: GEOSContext) -> RowAxis? {
        guard let g = try? context.geometry(footprint), let rect = try? context.minimumRotatedRectangle(g) else { return nil }
        let corners = context.footprint(rect).polygons.first?.shell ?? []
        guard corners.count >= 4 else { return nil }
        let a = corners[0], b = corners[1], c = corners[2]
        let ab = a.distance(to: b), bc = b.distance(to: c)
        guard ab > 1e-9, bc > 1e-9 else { return nil }
        let center = Point2(x: (a.x + c.x) / 2, y: (a.y + c.y) / 2)
        // Equal sides: take the first edge, a fixed choice.
        if ab >= bc {
            return RowAxis(center: center, axis: Point2(x: (b.x - a.x) / ab, y: (b.y - a.y) / ab), length: ab, width: bc)
        }
        return RowAxis(center: center, axis: Point2(x: (c.x - b.x) / bc, y: (c.y - b.y) / bc), length: bc, width: ab)
    }
}
