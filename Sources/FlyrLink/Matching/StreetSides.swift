import Foundation

/// Which side of its street an address's building lies on, as same-street neighbours tell it (one
/// parity runs along one side): what a road point cannot tell by distance, this can.
package struct StreetSides: Sendable {
    package static let radius = 50.0

    /// Per address: the street's direction (unit, oriented as numbers rise; zero when unknown), and the
    /// mean side (−1…1) of the same-parity and other-parity neighbours' nearest buildings.
    private struct Side {
        var direction: (Float, Float)
        var sameParity: Float
        var otherParity: Float
        /// 1 − how plainly the address's own nearest buildings put it on one side of its street.
        var unsure: Float = 1
        /// The numbering convention of the address's street alone (as `oddOnLeft`; 0 with fewer
        /// than 3 plain votes): streets are numbered from one end, and some towns the other way round.
        var streetOddOnLeft: Float = 0
    }

    private let side: [Side]

    /// `measures`: given every address's plain vote (0: none), the run's measures whose
    /// conventions apply (made from these votes, or from more addresses than these).
    init(points: [Point2], streets: [UInt64], numbers: [Int32], candidates: CandidateTable, pool: WorkerPool,
         measures: ([Double]) -> RunMeasures) {
        let grid = BoxGrid(count: points.count, cellSize: 2 * Self.radius, pool: pool) { i in
            BBox(minX: points[i].x, minY: points[i].y, maxX: points[i].x, maxY: points[i].y)
        }
        // An address's sides depend on its point, street and number only: the units of a complex
        // at one point are found once, not each searching all the others (k² for k units).
        let twin = Self.firstTwins(points: points, streets: streets, numbers: numbers)
        var side = pool.map(points.count, chunkSize: 4096, workerState: { [Int]() }) { _, near, a -> Side in
            guard twin[a] == a else { return Side(direction: (0, 0), sameParity: 0, otherParity: 0) }
            let (direction, same, other) = Self.sides(of: a, points: points, streets: streets, numbers: numbers, candidates: candidates,
                                                      grid: grid, scratch: &near)
            return Side(direction: direction, sameParity: same, otherParity: other)
        }
        for a in side.indices where twin[a] != a { side[a] = side[Int(twin[a])] }
        let plain = pool.map(points.count, chunkSize: 16_384) { _, a -> Double in
            let (ux, uy) = side[a].direction
            guard ux != 0 || uy != 0,
                  let v = Self.vote(of: a, candidates: candidates, points: points, origin: points[a], direction: (Double(ux), Double(uy)))
            else { return 0 }
            return numbers[a] % 2 == 1 ? v : -v
        }
        let run = measures(plain)
        oddOnLeft = run.oddOnLeft
        for a in side.indices {
            // Where an address's own building plainly lies on one side, the convention adds nothing.
            side[a].unsure = Float(1 - abs(plain[a]))
            side[a].streetOddOnLeft = run.oddOnLeft(street: streets[a])
        }
        self.side = side
    }

    /// The run's numbering convention: +1 when odd numbers are on the left as numbers rise, −1 the
    /// other way, 0 with fewer than 20 plain votes; it tells a road point between two houses its own.
    let oddOnLeft: Double

    /// +1 when a candidate at `offset` lies on the side the run's (and street's) convention puts `a`'s
    /// parity, −1 across, scaled by how strongly it is kept and how little `a`'s position says; 0 unknown.
    func onConventionSide(_ a: Int, number: Int32, offset: (dx: Float, dy: Float)) -> (run: Double, street: Double) {
        guard number >= 0 else { return (0, 0) }
        let s = leftOfRisingNumbers(a, offset: offset) * (number % 2 == 1 ? 1 : -1)
        return (s * oddOnLeft * Double(side[a].unsure), s * Double(side[a].streetOddOnLeft * side[a].unsure))
    }

    /// Where a candidate at `offset` from address `a` lies against its same-parity and
    /// other-parity neighbours' buildings: +1 on their side, −1 across, 0 unknown (each).
    func agreement(of a: Int, offset: (dx: Float, dy: Float)) -> (same: Double, other: Double) {
        let (ux, uy) = side[a].direction
        let cross = ux * offset.dy - uy * offset.dx
        guard ux != 0 || uy != 0, abs(cross) > 0.5 else { return (0, 0) }
        let which: Float = cross > 0 ? 1 : -1
        return (Double(which * side[a].sameParity), Double(which * side[a].otherParity))
    }

    /// +1 when a candidate at `offset` lies left of the street as its numbers rise, −1 right, 0 unknown.
    func leftOfRisingNumbers(_ a: Int, offset: (dx: Float, dy: Float)) -> Double {
        let (ux, uy) = side[a].direction
        let cross = ux * offset.dy - uy * offset.dx
        guard ux != 0 || uy != 0, abs(cross) > 0.5 else { return 0 }
        return cross > 0 ? 1 : -1
    }

    /// How far a candidate lies along the street from the address and across it (metres; −1 both when
    /// unknown): a road point's own house is straight across, a neighbour's is along.
    func alongAndAcross(of a: Int, offset: (dx: Float, dy: Float)) -> (along: Double, across: Double) {
        let (ux, uy) = side[a].direction
        guard ux != 0 || uy != 0 else { return (-1, -1) }
        return (Double(abs(ux * offset.dx + uy * offset.dy)), Double(abs(ux * offset.dy - uy * offset.dx)))
    }

    /// Per address, the first address with the same point, street and number (itself when none, or
    /// without street or number); an open-addressed table, 8 bytes an address.
    static func firstTwins(points: [Point2], streets: [UInt64], numbers: [Int32]) -> [Int32] {
        var twin = (0..<Int32(points.count)).map { $0 }
        let mask = (1 << max(4, Int.bitWidth - (2 * points.count).leadingZeroBitCount)) - 1
        var first = [Int32](repeating: -1, count: mask + 1)
        func same(_ a: Int, _ b: Int) -> Bool {
            points[a].x.bitPattern == points[b].x.bitPattern && points[a].y.bitPattern == points[b].y.bitPattern
                && streets[a] == streets[b] && numbers[a] == numbers[b]
        }
        for a in points.indices where streets[a] != 0 && numbers[a] >= 0 {
            var h = points[a].x.bitPattern &* 0x9E37_79B9_7F4A_7C15 ^ points[a].y.bitPattern &* 0xC2B2_AE3D_27D4_EB4F
            h ^= streets[a] &* 0x1656_67B1_9E37_79F9 ^ UInt64(UInt32(bitPattern: numbers[a]))
            var slot = Int(truncatingIfNeeded: (h ^ h >> 29) & UInt64(mask))
            while first[slot] >= 0, !same(Int(first[slot]), a) { slot = (slot + 1) & mask }
            if first[slot] < 0 { first[slot] = Int32(a) } else { twin[a] = first[slot] }
        }
        return twin
    }

    private static func sides(of a: Int, points: [Point2], streets: [UInt64], numbers: [Int32], candidates: CandidateTable,
                              grid: BoxGrid, scratch near: inout [Int]) -> ((Float, Float), Float, Float) {
        let none: ((Float, Float), Float, Float) = ((0, 0), 0, 0)
        guard streets[a] != 0, numbers[a] >= 0 else { return none }
        let p = points[a]
        near.removeAll(keepingCapacity: true)
        #if DEBUG
        var visited = 0
        defer { WorkCount.streetNeighbours.add(visited, ordering: .relaxed) }
        #endif
        grid.search(BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y).expanded(by: radius)) { o, _ in
            #if DEBUG
            visited += 1
            #endif
            if o != a, streets[o] == streets[a], numbers[o] >= 0, numbers[o] != numbers[a], points[o].distance(to: p) <= radius { near.append(o) }
        }
        guard near.count >= 2 else { return none }
        near.sort()  // the sums below in one order whatever the grid's
        // The principal axis of the street's points here.
        var mx = p.x, my = p.y
        for o in near { mx += points[o].x; my += points[o].y }
        let n = Double(near.count + 1)
        mx /= n; my /= n
        var sxx = (p.x - mx) * (p.x - mx), syy = (p.y - my) * (p.y - my), sxy = (p.x - mx) * (p.y - my)
        for o in near {
            let dx = points[o].x - mx, dy = points[o].y - my
            sxx += dx * dx; syy += dy * dy; sxy += dx * dy
        }
        guard sxx + syy > 1 else { return none }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var ux = cos(angle), uy = sin(angle)
        // Turned the way the numbers rise: the sign of their covariance with the position along the axis.
        var rise = 0.0
        for o in near { rise += Double(numbers[o] - numbers[a]) * (ux * (points[o].x - p.x) + uy * (points[o].y - p.y)) }
        if rise < 0 { ux = -ux; uy = -uy }
        var same = 0.0, sameCount = 0.0, other = 0.0, otherCount = 0.0
        for o in near {
            guard let side = vote(of: o, candidates: candidates, points: points, origin: p, direction: (ux, uy)) else { continue }
            if (numbers[o] - numbers[a]) % 2 == 0 { same += side; sameCount += 1 } else { other += side; otherCount += 1 }
        }
        return ((Float(ux), Float(uy)), sameCount > 0 ? Float(same / sameCount) : 0, otherCount > 0 ? Float(other / otherCount) : 0)
    }

    /// Which side of the line through `origin` neighbour `o`'s building lies on (+1 left, −1 right),
    /// weighted by how plainly (full at `plainMargin`): a house on each side at equal distance says nothing.
    private static func vote(of o: Int, candidates: CandidateTable, points: [Point2], origin p: Point2,
                             direction: (Double, Double)) -> Double? {
        let (ux, uy) = direction
        var left = Double.infinity, right = Double.infinity
        for entry in candidates.entries(of: o) {  // (not a slice: no reference counted per neighbour)
            let c = candidates.entry(entry)
            let bx = points[o].x + Double(c.dx) - p.x, by = points[o].y + Double(c.dy) - p.y
            let cross = ux * by - uy * bx
            guard abs(cross) > 0.5 else { continue }
            if c.covers { return cross > 0 ? 1 : -1 }
            if cross > 0 { left = min(left, Double(c.distance)) } else { right = min(right, Double(c.distance)) }
        }
        guard left.isFinite || right.isFinite else { return nil }
        let margin = min(right, Self.farSide) - min(left, Self.farSide)
        return max(-1, min(1, margin / Self.plainMargin))
    }

    /// A margin between the two sides' nearest buildings that settles a neighbour's side (metres),
    /// and what stands in for "no building on that side".
    static let plainMargin = 4.0
    static let farSide = 60.0
}
