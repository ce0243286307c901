/// The territory at a glance: square cells of the metric frame, each with its addresses, how many
/// of them are doubtful (unlinked, or linked below `ReportSettings.doubtfulBelow`) and its buildings.
/// At most `ReportSettings.overviewCells` cells along the longer side, whatever the size of the run:
/// the page stays the same size for a city block and for a region of ten million buildings.
struct OverviewGrid {
    /// South-west corner of cell (0, 0), in metres.
    let origin: Point2
    /// Cell side, in metres: a round length (1, 2 or 5 × 10^k).
    let cell: Double
    let columns: Int
    let rows: Int
    private(set) var addresses: [Int32]
    private(set) var doubtful: [Int32]
    private(set) var buildings: [Int32]

    /// A grid covering `extent` (metres), cells of at least `minimumCell` metres.
    init(extent: BBox, maxCells: Int = ReportSettings.overviewCells, minimumCell: Double = ReportSettings.minimumOverviewCell) {
        let box = extent.isEmpty ? BBox(minX: 0, minY: 0, maxX: 1, maxY: 1) : extent
        let side = max(box.maxX - box.minX, box.maxY - box.minY)
        cell = max(minimumCell, Self.roundUp(side / Double(maxCells)))
        // Aligned to multiples of the cell, so the same extent gives the same cells.
        let x0 = (box.minX / cell).rounded(.down), y0 = (box.minY / cell).rounded(.down)
        origin = Point2(x: x0 * cell, y: y0 * cell)
        columns = max(1, Int((box.maxX / cell).rounded(.down) - x0) + 1)
        rows = max(1, Int((box.maxY / cell).rounded(.down) - y0) + 1)
        addresses = [Int32](repeating: 0, count: columns * rows)
        doubtful = addresses
        buildings = addresses
    }

    /// The smallest 1, 2 or 5 × 10^k not below `v` (v > 0).
    static func roundUp(_ v: Double) -> Double {
        guard v.isFinite, v > 0 else { return 1 }
        var p = 1.0
        while p < v { p *= 10 }
        while p / 10 >= v { p /= 10 }
        // p / 10 < v <= p
        if p / 5 >= v { return p / 5 }
        if p / 2 >= v { return p / 2 }
        return p
    }

    /// The cell index of a point (nil outside the grid).
    func index(of p: Point2) -> Int? {
        guard p.isFinite else { return nil }
        let cx = Int(((p.x - origin.x) / cell).rounded(.down)), cy = Int(((p.y - origin.y) / cell).rounded(.down))
        guard cx >= 0, cy >= 0, cx < columns, cy < rows else { return nil }
        return cy * columns + cx
    }

    mutating func addAddress(at p: Point2, doubtful isDoubtful: Bool) {
        guard let i = index(of: p) else { return }
        addresses[i] += 1
        if isDoubtful { doubtful[i] += 1 }
    }

    mutating func addBuilding(at p: Point2) {
        guard let i = index(of: p) else { return }
        buildings[i] += 1
    }

    /// Cell `i`'s box, in metres.
    func box(_ i: Int) -> BBox {
        let cx = Double(i % columns), cy = Double(i / columns)
        return BBox(minX: origin.x + cx * cell, minY: origin.y + cy * cell, maxX: origin.x + (cx + 1) * cell, maxY: origin.y + (cy + 1) * cell)
    }

    var bounds: BBox {
        BBox(minX: origin.x, minY: origin.y, maxX: origin.x + Double(columns) * cell, maxY: origin.y + Double(rows) * cell)
    }
}
