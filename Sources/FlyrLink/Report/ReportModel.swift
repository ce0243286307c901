/// The report's fixed choices, in one place (the page states them).
enum ReportSettings {
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
    static let tableRows = 15
}

/// What the page shows, computed from a `ReportSource` in a few passes over the addresses and one
/// over the buildings (O(n); the top-k tables keep k rows, not a sorted copy of everything).
struct ReportModel {
    struct SpotScene {
        var spot: WorstSpots.Spot
        /// The view drawn (the window with a margin), in metres.
        var view: BBox
        var centreLonLat: Point2
        var buildings: [(index: Int, footprint: Footprint)]  // metric
        var units: [Footprint]  // metric
        var addresses: [Int]
    }

    struct LongLink {
        var address: Int
        var building: Int
        var distance: Double
        var confidence: Double
    }

    var grid: OverviewGrid?
    /// The buildings' extent, in metres: the lon/lat box of every footprint, projected (an outline
    /// of points along its edges, true to the frame).
    var buildingExtent: [Point2] = []
    var spots: [SpotScene] = []
    var longLinks: [LongLink] = []
    var busiest: [(building: Int, addresses: Int, units: Int)] = []
    var addressMetric: [Point2] = []

    init<S: ReportSource>(_ source: S) {
        let n = source.addressCount
        let tm = source.frame.transverseMercator
        var outcomes: [AddressOutcome] = []
        outcomes.reserveCapacity(n)
        for a in 0..<n { outcomes.append(source.outcome(ofAddress: a)) }
        self.outcomes = outcomes

        // The tables need no geometry.
        longLinks = Self.top(ReportSettings.tableRows, of: outcomes.indices.lazy.filter { outcomes[$0].method == .proximity }) { a, b in
            // Equal distances by address id: the same order in memory and read back from links.csv.
            outcomes[a].distance != outcomes[b].distance ? outcomes[a].distance > outcomes[b].distance
                : (source.addressID(a), a) < (source.addressID(b), b)
        }.map { LongLink(address: $0, building: outcomes[$0].building!, distance: outcomes[$0].distance, confidence: outcomes[$0].confidence) }
        var perBuilding = [Int32](repeating: 0, count: source.buildingCount)
        for o in outcomes { if let b = o.building { perBuilding[b] += 1 } }
        var unitsPerBuilding = [Int32](repeating: 0, count: source.buildingCount)
        for u in 0..<source.unitCount { unitsPerBuilding[source.unitBuilding(u)] += 1 }
        busiest = Self.top(ReportSettings.tableRows, of: perBuilding.indices.lazy.filter { perBuilding[$0] > 1 }) { a, b in
            perBuilding[a] != perBuilding[b] ? perBuilding[a] > perBuilding[b] : a < b
        }.map { ($0, Int(perBuilding[$0]), Int(unitsPerBuilding[$0])) }

        guard source.hasGeometry else { return }
        // Addresses into the frame; their doubt.
        addressMetric = (0..<n).map { a in source.addressLonLat(a).map(tm.forward) ?? Point2(x: .nan, y: .nan) }
        let weights = outcomes.map { Int32(WorstSpots.weight(of: $0)) }
        func isUnlinked(_ a: Int) -> Bool { outcomes[a].building == nil }
        func isUnsure(_ a: Int) -> Bool { outcomes[a].building != nil && outcomes[a].confidence < ReportSettings.doubtfulBelow }
        let found = WorstSpots.find(positions: addressMetric, weights: weights, unlinked: isUnlinked, unsure: isUnsure,
                                    cell: ReportSettings.spotCell, count: ReportSettings.spotCount)

        // The buildings: their extent, their centres (for the grid), and those each spot shows.
        var lonLatExtent = BBox.empty
        var centres = [Point2](repeating: Point2(x: .nan, y: .nan), count: source.buildingCount)
        let views = found.map { spot -> BBox in
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
        var spotBuildings = [[Int]](repeating: [], count: found.count)
        for b in 0..<source.buildingCount {
            let box = source.buildingLonLatBox(b)
            guard !box.isEmpty else { continue }
            lonLatExtent.extend(box)
            centres[b] = tm.forward(box.center)
            for s in viewsLonLat.indices where viewsLonLat[s].intersects(box) { spotBuildings[s].append(b) }
        }
        buildingExtent = Self.outline(lonLatExtent, tm)

        var extent = BBox.empty
        for p in addressMetric where p.isFinite { extent.extend(p) }
        for p in centres where p.isFinite { extent.extend(p) }
        var grid = OverviewGrid(extent: extent)
        for a in 0..<n { grid.addAddress(at: addressMetric[a], doubtful: isUnlinked(a) || isUnsure(a)) }
        for p in centres { grid.addBuilding(at: p) }
        self.grid = grid

        // Each spot's scene: its buildings, their slices, its addresses, and the buildings its
        // addresses are linked to (however far).
        var unitsOf: [Int: [Int]] = [:]
        let wanted = Set(spotBuildings.joined())
        for u in 0..<source.unitCount where wanted.contains(source.unitBuilding(u)) { unitsOf[source.unitBuilding(u), default: []].append(u) }
        var spotAddresses = [[Int]](repeating: [], count: found.count)
        for a in 0..<n where addressMetric[a].isFinite {
            for s in views.indices where views[s].contains(addressMetric[a]) { spotAddresses[s].append(a) }
        }
        for (s, spot) in found.enumerated() {
            var shown = spotBuildings[s]
            let present = Set(shown)
            for a in spotAddresses[s] { if let b = outcomes[a].building, !present.contains(b) { shown.append(b) } }
            shown = Array(Set(shown)).sorted()
            let metricBuildings = shown.map { b in (b, Self.metric(source.buildingFootprint(b), tm)) }
            let units = shown.flatMap { unitsOf[$0] ?? [] }.sorted().map { Self.metric(source.unitFootprint($0), tm) }
            spots.append(SpotScene(spot: spot, view: views[s], centreLonLat: tm.inverse(spot.centre), buildings: metricBuildings,
                                   units: units, addresses: spotAddresses[s]))
        }
    }

    private(set) var outcomes: [AddressOutcome] = []

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

    /// The first `k` of `items` in the order `before`, keeping k at a time (O(n·k) at worst, about
    /// O(n) as most items fall behind the k-th).
    static func top<C: Sequence>(_ k: Int, of items: C, by before: (Int, Int) -> Bool) -> [Int] where C.Element == Int {
        var kept: [Int] = []
        for i in items {
            if kept.count == k, let last = kept.last, !before(i, last) { continue }
            let at = kept.firstIndex { before(i, $0) } ?? kept.count
            kept.insert(i, at: at)
            if kept.count > k { kept.removeLast() }
        }
        return kept
    }
}
