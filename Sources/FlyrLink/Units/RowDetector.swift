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

    /// Street names equal ignoring case (a missing name is ""); the same bytes need no lowercasing.
    private static func sameStreet(_ a: AddressPoint, _ b: AddressPoint) -> Bool {
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        let identical = a.withUTF8(.streetName) { x in b.withUTF8(.streetName) { y in (x ?? none).elementsEqual(y ?? none) } }
        return identical || (a.streetName ?? "").lowercased() == (b.streetName ?? "").lowercased()
    }

    /// The narrowest unit a row may have, in metres.
    static let minUnitWidth = 3.0

    /// A footprint this large per address is a block of flats or a city block, not a row of houses
    /// (townhouse units are 30–150 m² on the ground; a block of flats with two street numbers is not cut).
    static let maxUnitArea = 250.0

    /// Buildings with this many levels or more are blocks of flats (the source's levels, when it
    /// has them), never rows of houses.
    static let minFlatsLevels = 5

    /// A cut moves onto a party wall at most this share of a unit's width from the equal division.
    static let wallReach = 0.35

    /// Where the outline shows party walls across the row: positions along the axis shared by two
    /// or more of its vertices (within `wallTolerance`), away from the row's ends: the notches and steps
    /// where one house's front or back wall meets the next's. A plain rectangle has none.
    /// Vertices this close along the row are one wall: walls drawn square. A wall drawn askew is
    /// left alone (a cut through it would leave slivers of the next house).
    static let wallTolerance = 0.01

    static func partyWalls(_ vertexPositions: [Double], start: Double, end: Double) -> [Double] {
        let inner = vertexPositions.filter { $0 > start + 0.5 * minUnitWidth && $0 < end - 0.5 * minUnitWidth }.sorted()
        var walls: [Double] = []
        var group: [Double] = []
        func close() {
            if group.count >= 2 { walls.append(group.reduce(0, +) / Double(group.count)) }
            group.removeAll(keepingCapacity: true)
        }
        for x in inner {
            if let first = group.first, x - first > wallTolerance { close() }
            group.append(x)
        }
        close()
        return walls
    }

    static func rowOrder(of members: [Int], footprint b: Int, levels: Int? = nil, type: BuildingType = .unknown, scene: MetricScene,
                         addresses: [AddressPoint], context: GEOSContext) -> RowOrder? {
        let n = members.count
        guard n >= 2, n <= maxUnits else { return nil }
        if let levels, levels >= minFlatsLevels { return nil }
        // The source says it is a block of flats, or no home at all (`BuildingType`).
        guard type == .unknown else { return nil }
        guard scene.footprints[b].area <= maxUnitArea * Double(n) else { return nil }
        // Distinct dwellings: "11" and "11 B 9" (a staircase and flat of house 11), or "12-3", are one house.
        let dwellings = members.map { addresses[$0].withUTF8(.houseNumber) { HouseNumber.dwelling($0) } }
        guard Set(dwellings).count == n, !dwellings.contains("") else { return nil }
        // One side of the street: one parity ("20" and "25" face each other across it), unless
        // the numbers simply run on (1, 2, 3, 4: a mews numbered consecutively).
        let leading = members.map { addresses[$0].withUTF8(.houseNumber) { HouseNumber.leadingNumber($0) } }
        guard Set(leading.map { $0 % 2 }).count == 1 || leading.max()! - leading.min()! == n - 1 else { return nil }
        // Several distinct house numbers on one street; repeats mean units of one entrance (an apartment block).
        // (At most `maxUnits` members: compared pairwise, with no set or string made per building.)
        for i in 0..<n {
            guard let key = scene.addressKeys[members[i]] else { return nil }
            for j in 0..<i where scene.addressKeys[members[j]] == key { return nil }
        }
        guard members.dropFirst().allSatisfy({ sameStreet(addresses[members[0]], addresses[$0]) }) else { return nil }

        // Long axis from the minimum rotated rectangle: its longest edge.
        let footprint = scene.footprints.footprint(b)
        let outline = footprint.points  // holes lie inside the shell: the same extent
        guard let rect = RowAxis.of(footprint, context: context) else { return nil }
        var axis = rect.axis
        let origin = rect.center
        func along(_ p: Point2) -> Double { (p.x - origin.x) * axis.x + (p.y - origin.y) * axis.y }
        // Point the axis from the lowest house number's end, so unit 0 is that end.
        let numbers = members.map { HouseNumber.parts(addresses[$0].houseNumber) }
        let lowest = members[numbers.indices.min { HouseNumber.less(numbers[$0], numbers[$1]) }!]
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

        // Equal division, each cut kept strictly between its two neighbours' positions, and moved
        // onto a party wall where the outline shows one near it.
        var vertices: [Double] = []  // each ring's vertices once (its closing point repeats its first)
        for r in 0..<footprint.ringCount { for k in footprint.ringRange(r).dropLast() { vertices.append(along(footprint.points[k])) } }
        let walls = partyWalls(vertices, start: start, end: end)
        var cuts: [Double] = []
        for k in 1..<n {
            let equal = start + unit * Double(k)
            let gap = positions[k] - positions[k - 1]
            let lo = positions[k - 1] + 0.25 * gap, hi = positions[k] - 0.25 * gap
            var cut = min(max(equal, lo), hi)
            let after = max(lo, (cuts.last ?? start) + minUnitWidth)
            if let wall = walls.filter({ $0 > after && $0 < hi && abs($0 - equal) <= wallReach * unit })
                .min(by: { abs($0 - equal) < abs($1 - equal) }) {
                cut = wall
            }
            cuts.append(cut)
        }
        return RowOrder(origin: origin, axis: axis, start: start, end: end, width: rect.width,
                        addresses: ordered.map(\.0), cuts: cuts)
    }
}
