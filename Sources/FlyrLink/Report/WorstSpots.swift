/// The places most worth a look before a campaign goes out: square windows of the metric frame
/// where the most addresses are unlinked or linked with little confidence.
///
/// O(n), in two passes over the addresses (`Cells`, then `Counting`): the doubtful addresses' weights are summed per cell of `cell` metres (a hash map of the
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

    /// The doubt summed per cell of `cell` metres (a hash map of the cells with any).
    struct Cells {
        let cell: Double
        private(set) var weight: [Int64: Int] = [:]

        init(cell: Double) { self.cell = cell }

        mutating func add(_ p: Point2, weight w: Int) {
            guard w > 0, p.isFinite else { return }
            let (x, y) = WorstSpots.cell(of: p, cell)
            weight[WorstSpots.key(x, y), default: 0] += w
        }

        /// The `count` worst windows, never overlapping: the windows holding a doubtful cell, best
        /// first (ties: north first, then west first: reading order), taken greedily. A window
        /// taken rules out at most 8 others, so only the first 9 × `count` can be taken: those are
        /// kept, not every window sorted.
        func choose(count: Int) -> [Spot] {
            let keep = 9 * count
            var candidates: [(x: Int, y: Int, score: Int)] = []
            func before(_ a: (x: Int, y: Int, score: Int), _ b: (x: Int, y: Int, score: Int)) -> Bool {
                if a.score != b.score { return a.score > b.score }
                if a.y != b.y { return a.y > b.y }
                return a.x < b.x
            }
            // Each window once: from the first of its doubtful cells in the order (0,0), (1,0), (0,1), (1,1).
            let offsets = [(0, 0), (1, 0), (0, 1), (1, 1)]
            for k in weight.keys {
                let cx = Int(k >> 32), cy = Int(Int32(truncatingIfNeeded: k))
                for ax in (cx - 1)...cx {
                    for ay in (cy - 1)...cy {
                        let at = offsets.firstIndex { $0 == (cx - ax, cy - ay) }!
                        if offsets[..<at].contains(where: { weight[WorstSpots.key(ax + $0.0, ay + $0.1)] != nil }) { continue }
                        var s = 0
                        for (dx, dy) in offsets { s += weight[WorstSpots.key(ax + dx, ay + dy)] ?? 0 }
                        candidates.append((ax, ay, s))
                        if candidates.count >= 2 * keep + 64 {
                            candidates.sort(by: before)
                            candidates.removeLast(candidates.count - keep)
                        }
                    }
                }
            }
            candidates.sort(by: before)
            var spots: [Spot] = []
            for c in candidates {
                if spots.count == count { break }
                if spots.contains(where: { abs($0.cellX - c.x) < 2 && abs($0.cellY - c.y) < 2 }) { continue }
                let window = BBox(minX: Double(c.x) * cell, minY: Double(c.y) * cell, maxX: Double(c.x + 2) * cell, maxY: Double(c.y + 2) * cell)
                spots.append(Spot(cellX: c.x, cellY: c.y, window: window, score: c.score, centre: window.center))
            }
            return spots
        }
    }

    /// The spots' counts and centres, in one pass over the addresses in address order (so the
    /// sums are the same every time). Windows are half-open, as the cells are.
    struct Counting {
        private var counted: [Spot]
        private var sums: [(x: Double, y: Double, n: Int)]
        private let cell: Double

        init(spots: [Spot], cell: Double) {
            counted = spots
            self.cell = cell
            sums = [(x: Double, y: Double, n: Int)](repeating: (0, 0, 0), count: spots.count)
        }

        mutating func add(_ p: Point2, weight: Int, unlinked: Bool, unsure: Bool) {
            guard p.isFinite else { return }
            let (x, y) = WorstSpots.cell(of: p, cell)
            for s in counted.indices where x - counted[s].cellX == 0 || x - counted[s].cellX == 1 {
                guard y - counted[s].cellY == 0 || y - counted[s].cellY == 1 else { continue }
                counted[s].addresses += 1
                if unlinked { counted[s].unlinked += 1 } else if unsure { counted[s].unsure += 1 }
                if weight > 0 { sums[s].x += p.x; sums[s].y += p.y; sums[s].n += 1 }
            }
        }

        /// The spots with their counts, each centred on its doubtful addresses (on its window
        /// when it holds none).
        var spots: [Spot] {
            var spots = counted
            for s in spots.indices where sums[s].n > 0 {
                spots[s].centre = Point2(x: sums[s].x / Double(sums[s].n), y: sums[s].y / Double(sums[s].n))
            }
            return spots
        }
    }

    static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: y))) }
    static func cell(of p: Point2, _ cell: Double) -> (Int, Int) { (Int((p.x / cell).rounded(.down)), Int((p.y / cell).rounded(.down))) }
}
