/// Decides whether a multi-address building is a row of townhomes, and where its cuts go.
enum RowDetector {
    /// The row's axis frame and the planned cuts, in the metric frame.
    struct RowOrder: Sendable {
        var origin: Point2
        /// Unit vector along the long axis, pointing from the lowest house number's end.
        var axis: Point2
        var start: Double
        var end: Double
        var width: Double
        /// Address indices ordered along the axis.
        var addresses: [Int]
        /// Positions (along the axis) of the cuts between consecutive slices; count = addresses - 1.
        var cuts: [Double]

        /// A metric point as (along, across) the axis from `origin`: the inverse of `point(along:across:)`.
        func rowCoordinates(_ p: Point2) -> Point2 {
            let dx = p.x - origin.x, dy = p.y - origin.y
            return Point2(x: dx * axis.x + dy * axis.y, y: -dx * axis.y + dy * axis.x)
        }

        func point(along s: Double, across t: Double) -> Point2 {
            Point2(x: origin.x + axis.x * s - axis.y * t, y: origin.y + axis.y * s + axis.x * t)
        }

    }

    static let maxUnits = 40
    /// The narrowest unit a row may have, in metres.
    static let minUnitWidth = 3.0

    static func rowOrder(of members: [Int], building b: Int, scene: MetricScene, addresses: [AddressPoint], context: GEOSContext) -> RowOrder? {
        let n = members.count
        guard n >= 2, n <= maxUnits else { return nil }
        // Several distinct house numbers on one street; repeats mean units of one entrance (an apartment block).
        let keys = members.map { scene.addressKeys[$0] }
        guard keys.allSatisfy({ $0 != nil }), Set(keys).count == n else { return nil }
        let streets = Set(members.map { (addresses[$0].streetName ?? "").lowercased() })
        guard streets.count == 1 else { return nil }

        // Long axis from the minimum rotated rectangle: its longest edge.
        let outline = scene.footprints[b].points  // holes lie inside the shell: the same extent
        guard let rect = RowAxis.of(scene.footprints[b], context: context) else { return nil }
        var axis = rect.axis
        let origin = rect.center
        func along(_ p: Point2) -> Double { (p.x - origin.x) * axis.x + (p.y - origin.y) * axis.y }
        // Point the axis from the lowest house number's end, so unit 0 is that end.
        let lowest = members.min { HouseNumber.less(addresses[$0].houseNumber, addresses[$1].houseNumber) }!
        let projections = members.map { along(scene.addressPoints[$0]) }
        let mean = projections.reduce(0, +) / Double(n)
        if along(scene.addressPoints[lowest]) > mean { axis = Point2(x: -axis.x, y: -axis.y) }

        let extent = outline.map(along)
        let start = extent.min()!, end = extent.max()!
        let length = end - start
        guard length / Double(n) >= minUnitWidth, length >= 1.2 * rect.width || n >= 3 else { return nil }

        // The addresses must spread along the axis, each in its own stretch: not clustered at one spot.
        let ordered = zip(members, members.map { along(scene.addressPoints[$0]) }).sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        let positions = ordered.map(\.1)
        let unit = length / Double(n)
        guard positions.last! - positions.first! >= 0.5 * unit * Double(n - 1) else { return nil }
        guard positions.first! > start - unit, positions.last! < end + unit else { return nil }

        // Equal division, each cut kept strictly between its two neighbours' positions.
        var cuts: [Double] = []
        for k in 1..<n {
            let equal = start + unit * Double(k)
            let gap = positions[k] - positions[k - 1]
            let lo = positions[k - 1] + 0.25 * gap, hi = positions[k] - 0.25 * gap
            cuts.append(min(max(equal, lo), hi))
        }
        return RowOrder(origin: origin, axis: axis, start: start, end: end, width: rect.width,
                        addresses: ordered.map(\.0), cuts: cuts)
    }
}
