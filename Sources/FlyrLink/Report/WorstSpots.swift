/// The places most worth a look before a campaign goes out: square windows of the metric frame
/// where the most addresses are unlinked or linked with little confidence.
///
/// O(n): the doubtful addresses' weights are summed per cell of `cell` metres (a hash map of the
/// non-empty cells), each window is 2×2 cells (so a cluster on a cell edge is not cut in two), and
/// the windows are taken greedily, best first, never overlapping. Ties are broken by position, so
/// the spots depend on the addresses alone, not on their order or the thread count.
enum WorstSpots {
    struct Spot: Equatable {
        /// Cell coordinates of the window's south-west cell.
        var cellX: Int
        var cellY: Int
        /// The window, in metres.
        var window: BBox
        /// Sum of the doubt weights (`weight(of:)`) in the window, in thousandths.
        var score: Int
        var addresses = 0
        var unlinked = 0
        /// Linked below `ReportSettings.doubtfulBelow`.
        var unsure = 0
        /// Where the doubtful addresses are (the mean of their points), in metres.
        var centre: Point2
    }

    /// How doubtful one address is, in thousandths: an unlinked address 1000; a link from 1000
    /// (confidence 0.5, a coin toss) down to 0 at `ReportSettings.sureFrom` and above. Integers, so
    /// that sums are exact and do not depend on the order they are made in.
    static func weight(of o: AddressOutcome) -> Int {
        guard o.building != nil else { return 1000 }
        let sure = ReportSettings.sureFrom
        guard o.confidence < sure else { return 0 }
        return Int(((sure - o.confidence) / (sure - 0.5) * 1000).rounded())
    }

    /// `positions` in metres (non-finite: skipped), `weights` per address as `weight(of:)`, `doubtful` per address
    /// (unlinked or below the level): the `count` worst windows of 2×2 cells of `cell` metres, worst first.
    static func find(positions: [Point2], weights: [Int32], unlinked: (Int) -> Bool, unsure: (Int) -> Bool,
                     cell: Double, count: Int) -> [Spot] {
        var cellWeight: [Int64: Int] = [:]
        func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: y))) }
        func cellOf(_ p: Point2) -> (Int, Int) { (Int((p.x / cell).rounded(.down)), Int((p.y / cell).rounded(.down))) }
        for (a, p) in positions.enumerated() where weights[a] > 0 && p.isFinite {
            let (x, y) = cellOf(p)
            cellWeight[key(x, y), default: 0] += Int(weights[a])
        }
        // Every window holding a doubtful cell, scored once.
        var candidates: [(x: Int, y: Int, score: Int)] = []
        var seen = Set<Int64>()
        for k in cellWeight.keys {
            let cx = Int(k >> 32), cy = Int(Int32(truncatingIfNeeded: k))
            for ax in (cx - 1)...cx {
                for ay in (cy - 1)...cy where seen.insert(key(ax, ay)).inserted {
                    var s = 0
                    for dx in 0...1 { for dy in 0...1 { s += cellWeight[key(ax + dx, ay + dy)] ?? 0 } }
                    candidates.append((ax, ay, s))
                }
            }
        }
        candidates.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.y != b.y { return a.y > b.y }  // north first, then west first: reading order
            return a.x < b.x
        }
        var spots: [Spot] = []
        for c in candidates {
            if spots.count == count { break }
            if spots.contains(where: { abs($0.cellX - c.x) < 2 && abs($0.cellY - c.y) < 2 }) { continue }
            let window = BBox(minX: Double(c.x) * cell, minY: Double(c.y) * cell, maxX: Double(c.x + 2) * cell, maxY: Double(c.y + 2) * cell)
            spots.append(Spot(cellX: c.x, cellY: c.y, window: window, score: c.score, centre: window.center))
        }
        // The spots' counts and centres, in one pass over the addresses (in address order, so the
        // sums are the same every time). Windows are half-open, as the cells are.
        var sums = [(x: Double, y: Double, n: Int)](repeating: (0, 0, 0), count: spots.count)
        for (a, p) in positions.enumerated() where p.isFinite {
            let (x, y) = cellOf(p)
            for s in spots.indices where x - spots[s].cellX == 0 || x - spots[s].cellX == 1 {
                guard y - spots[s].cellY == 0 || y - spots[s].cellY == 1 else { continue }
                spots[s].addresses += 1
                if unlinked(a) { spots[s].unlinked += 1 } else if unsure(a) { spots[s].unsure += 1 }
                if weights[a] > 0 { sums[s].x += p.x; sums[s].y += p.y; sums[s].n += 1 }
            }
        }
        for s in spots.indices where sums[s].n > 0 {
            spots[s].centre = Point2(x: sums[s].x / Double(sums[s].n), y: sums[s].y / Double(sums[s].n))
        }
        return spots
    }
}
