/// The report's fixed choices, in one place (the page states them).
package enum ReportSettings {
    /// An address is doubtful when unlinked or linked below this confidence (the overview's colour,
    /// the spots' counts).
    static let doubtfulBelow = 0.7
    /// Links at or above this confidence add nothing to a spot's doubt (`WorstSpots.weight`).
    static let sureFrom = 0.8
    static let spotCount = 10
    /// The spots' cells (a spot's window is 2×2 cells).
    static let spotCell = 40.0
    static let overviewCells = 64
    static let minimumOverviewCell = 10.0
    package static let tableRows = 15
}

/// What the page shows, computed from a `ReportSource` in passes: with geometry two over the
/// addresses, two over the buildings and one over the units; without, one over each. It holds
/// what it shows: the overview's cells, the doubtful 40 m cells (for the spots), the tables' rows,
/// and the addresses and footprints near the spots; not a row of every address or building.
struct ReportModel {
    /// An address near a spot, with its point in the frame.
    struct SpotAddress {
        var address: ReportAddress
        var metric: Point2
    }

    struct SpotScene {
        var spot: WorstSpots.Spot
        /// The view drawn (the window with a margin), in metres.
        var view: BBox
        var centreLonLat: Point2
        var buildings: [(id: String, footprint: Footprint)]  // metric
        var units: [Footprint]  // metric
        /// In address order.
        var addresses: [SpotAddress]
    }

    struct LongLink {
        var address: ReportAddress
        var building: String { address.outcome.building! }
        var distance: Double { address.outcome.distance }
        var confidence: Double { address.outcome.confidence }
    }

    struct BusyBuilding {
        var building: ReportBuilding
        var addresses: Int { building.addressCount }
        var units = 0
    }

    var grid: OverviewGrid?
    /// The buildings' extent, in metres: the lon/lat box of every footprint, projected (an outline
    /// of points along its edges, true to the frame).
    var buildingExtent: [Point2] = []
    var spots: [SpotScene] = []
    var longLinks: [LongLink] = []
    var busiest: [BusyBuilding] = []

    init<S: ReportSource>(_ source: S) throws {
        let tm = source.frame.transverseMercator
        let geometry = source.hasGeometry
        func isDoubtful(_ o: AddressOutcome) -> Bool { o.building == nil || o.confidence < ReportSettings.doubtfulBelow }

        // The first pass over the addresses and the first over the buildings, side by side.
        let (addresses, buildings) = try Concurrently.both({ () throws(InputError) in
            try Self.passing { try Self.firstPass(overAddresses: source) }
        }, { () throws(InputError) in
            try Self.passing { try Self.firstPass(overBuildings: source) }
        })
        longLinks = addresses.long.map(LongLink.init)
        busiest = buildings.busiest.map { BusyBuilding(building: $0) }
        var spotsFound = addresses.cells.choose(count: ReportSettings.spotCount)
        let lonLatExtent = buildings.lonLatExtent, centreExtent = buildings.centreExtent, addressExtent = addresses.extent
        let addressPoints = addresses.points, buildingCentres = buildings.centres
        guard geometry else {
            try countUnits(source, inViews: [])
            return
        }
        buildingExtent = Self.outline(lonLatExtent, tm)
        var extent = addressExtent
        extent.extend(centreExtent)
        var grid = OverviewGrid(extent: extent)

        // Addresses, second pass: the overview's cells, the spots' counts and centres, and the
        // addresses near a spot (a view is centred within its window: half a view around it holds it).
        var counting = WorstSpots.Counting(spots: spotsFound, cell: ReportSettings.spotCell)
        let near = spotsFound.map { $0.window.expanded(by: ReportSettings.spotCell * 1.25 + 1) }
        var nearby: [SpotAddress] = []
        try source.forEachAddress { a in
            let p = addressPoints.isEmpty ? Self.metric(a, tm) : addressPoints[a.index]
            grid.addAddress(at: p, doubtful: isDoubtful(a.outcome))
            let unlinked = a.outcome.building == nil
            counting.add(p, weight: WorstSpots.weight(of: a.outcome), unlinked: unlinked, unsure: !unlinked && isDoubtful(a.outcome))
            if p.isFinite, near.contains(where: { $0.contains(p) }) { nearby.append(SpotAddress(address: a, metric: p)) }
        }
        spotsFound = counting.spots
        let views = spotsFound.map { spot -> BBox in
            let half = ReportSettings.spotCell * 1.25
            return BBox(minX: spot.centre.x - half, minY: spot.centre.y - half, maxX: spot.centre.x + half, maxY: spot.centre.y + half)
        }
        let viewsLonLat = views.map { v -> BBox in
            var b = BBox.empty
            for p in [Point2(x: v.minX, y: v.minY), Point2(x: v.maxX, y: v.minY), Point2(x: v.minX, y: v.maxY), Point2(x: v.maxX, y: v.maxY)] {
                b.extend(tm.inverse(p))
            }
            return b.expanded(by: 1e-5)
        }
        let spotAddresses = views.map { view in nearby.filter { view.contains($0.metric) } }
        nearby = []

        // Buildings, second pass: the overview's cells, and the footprints the spots show: those in
        // a view, and those its addresses are linked to (however far).
        let linkedFromSpots = Set(spotAddresses.joined().compactMap { $0.address.outcome.building })
        var spotBuildings = [[Int]](repeating: [], count: spotsFound.count)
        var shownBuilding: [Int: (id: String, footprint: Footprint)] = [:]
        var linkedIndex: [String: Int] = [:]
        try source.forEachBuilding { b, footprint in
            let box = b.lonLatBox
            var shown = false
            if !box.isEmpty {
                grid.addBuilding(at: buildingCentres.isEmpty ? tm.forward(box.center) : buildingCentres[b.index])
                for s in viewsLonLat.indices where viewsLonLat[s].intersects(box) {
                    spotBuildings[s].append(b.index)
                    shown = true
                }
            }
            if linkedFromSpots.contains(b.id), linkedIndex[b.id] == nil {
                linkedIndex[b.id] = b.index
                shown = true
            }
            if shown { shownBuilding[b.index] = (b.id, Self.metric(footprint(), tm)) }
        }
        self.grid = grid

        // Each spot's scene: its buildings, their slices, its addresses.
        var scenes: [SpotScene] = []
        for (s, spot) in spotsFound.enumerated() {
            var shown = Set(spotBuildings[s])
            for a in spotAddresses[s] { if let id = a.address.outcome.building, let b = linkedIndex[id] { shown.insert(b) } }
            scenes.append(SpotScene(spot: spot, view: views[s], centreLonLat: tm.inverse(spot.centre),
                                    buildings: shown.sorted().map { shownBuilding[$0]! }, units: [], addresses: spotAddresses[s]))
        }
        spots = scenes
        try countUnits(source, inViews: Set(spotBuildings.joined().map { shownBuilding[$0]!.id }))
    }

    /// The addresses' first pass: the long links (no geometry needed), and with geometry the
    /// doubt per 40 m cell and the points' extent in the frame; the points themselves when the
    /// source holds its rows (the second pass then takes them, not the projection again).
    private static func firstPass<S: ReportSource>(overAddresses source: S) throws
        -> (long: [ReportAddress], cells: WorstSpots.Cells, extent: BBox, points: [Point2]) {
        let tm = source.frame.transverseMercator
        var long = TopRows<ReportAddress>(ReportSettings.tableRows) { a, b in
            // Equal distances by address id: the same order in memory and read back from links.csv.
            a.outcome.distance != b.outcome.distance ? a.outcome.distance > b.outcome.distance : (a.id, a.index) < (b.id, b.index)
        }
        var cells = WorstSpots.Cells(cell: ReportSettings.spotCell)
        var extent = BBox.empty
        var points: [Point2] = []
        try source.forEachAddress { a in
            if a.outcome.method == .proximity { long.offer(a) }
            guard source.hasGeometry else { return }
            let p = metric(a, tm)
            if p.isFinite { extent.extend(p) }
            cells.add(p, weight: WorstSpots.weight(of: a.outcome))
            if source.holdsRows { points.append(p) }
        }
        return (long.rows, cells, extent, points)
    }

    /// The buildings' first pass: the busiest (no geometry needed), the footprints' extent in
    /// lon/lat and their boxes' centres' in the frame; the centres themselves when the source
    /// holds its rows.
    private static func firstPass<S: ReportSource>(overBuildings source: S) throws
        -> (busiest: [ReportBuilding], lonLatExtent: BBox, centreExtent: BBox, centres: [Point2]) {
        let tm = source.frame.transverseMercator
        var busy = TopRows<ReportBuilding>(ReportSettings.tableRows) { a, b in
            a.addressCount != b.addressCount ? a.addressCount > b.addressCount : a.index < b.index
        }
        var lonLatExtent = BBox.empty, centreExtent = BBox.empty
        var centres: [Point2] = []
        try source.forEachBuilding { b, _ in
            if b.addressCount > 1 { busy.offer(b) }
            guard source.hasGeometry else { return }
            guard !b.lonLatBox.isEmpty else {
                if source.holdsRows { centres.append(Point2(x: .nan, y: .nan)) }
                return
            }
            lonLatExtent.extend(b.lonLatBox)
            let centre = tm.forward(b.lonLatBox.center)
            if centre.isFinite { centreExtent.extend(centre) }
            if source.holdsRows { centres.append(centre) }
        }
        return (busy.rows, lonLatExtent, centreExtent, centres)
    }

    /// An address's point in the frame (not a number without one).
    static func metric(_ a: ReportAddress, _ tm: TransverseMercator) -> Point2 { a.lonLat.map(tm.forward) ?? Point2(x: .nan, y: .nan) }

    /// `body`'s error as an input error (what `Concurrently` passes on).
    private static func passing<T>(_ body: () throws -> T) throws(InputError) -> T {
        do { return try body() } catch let error as InputError { throw error } catch { throw InputError("\(error)") }
    }

    /// Units: the busiest buildings' slice counts, and each spot's slices: those of its buildings
    /// that lie in some spot's view (`inViews`: a building shown only as an address's link is
    /// drawn without its slices), in unit order.
    private mutating func countUnits<S: ReportSource>(_ source: S, inViews: Set<String>) throws {
        let tm = source.frame.transverseMercator
        var busyIndex: [String: Int] = [:]
        for (k, b) in busiest.enumerated() where busyIndex[b.building.id] == nil { busyIndex[b.building.id] = k }
        let shownIn = spots.map { Set($0.buildings.map(\.id)).intersection(inViews) }
        try source.forEachUnit { building, footprint in
            if let k = busyIndex[building] { busiest[k].units += 1 }
            guard inViews.contains(building) else { return }
            var drawn: Footprint?
            for s in spots.indices where shownIn[s].contains(building) {
                if drawn == nil { drawn = Self.metric(footprint(), tm) }
                spots[s].units.append(drawn!)
            }
        }
    }

    static func metric(_ f: Footprint, _ tm: TransverseMercator) -> Footprint {
        var m = f
        m.movePoints(tm.forward)
        return m
    }

    /// A lon/lat box as a ring in the frame, 8 points per edge.
    static func outline(_ box: BBox, _ tm: TransverseMercator) -> [Point2] {
        guard !box.isEmpty else { return [] }
        var ring: [Point2] = []
        let steps = 8
        func lerp(_ a: Double, _ b: Double, _ k: Int) -> Double { a + (b - a) * Double(k) / Double(steps) }
        for k in 0..<steps { ring.append(Point2(x: lerp(box.minX, box.maxX, k), y: box.minY)) }
        for k in 0..<steps { ring.append(Point2(x: box.maxX, y: lerp(box.minY, box.maxY, k))) }
        for k in 0..<steps { ring.append(Point2(x: lerp(box.maxX, box.minX, k), y: box.maxY)) }
        for k in 0..<steps { ring.append(Point2(x: box.minX, y: lerp(box.maxY, box.minY, k))) }
        return ring.map(tm.forward)
    }
}

/// The first `k` of the rows offered, in the order `before` (equal rows in the order offered),
/// keeping k at a time (O(n·k) at worst, about O(n) as most rows fall behind the k-th).
struct TopRows<Row> {
    let k: Int
    let before: (Row, Row) -> Bool
    private(set) var rows: [Row] = []

    init(_ k: Int, by before: @escaping (Row, Row) -> Bool) {
        self.k = k
        self.before = before
    }

    mutating func offer(_ row: Row) {
        if rows.count == k, let last = rows.last, !before(row, last) { return }
        let at = rows.firstIndex { before(row, $0) } ?? rows.count
        rows.insert(row, at: at)
        if rows.count > k { rows.removeLast() }
    }
}
