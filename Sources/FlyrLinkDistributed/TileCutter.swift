import FlyrLink
/// Cuts the addresses' points into tiles of nearly equal address counts: the box is halved again
/// and again across its longer side (of the points in it), at the point that splits its count in
/// the ratio of the tiles each half gets. Deterministic: ties in a coordinate are ordered by
/// address, and a point on a cut belongs to the upper half (as `TileBounds.contains` has it).
enum TileCutter {
    /// Each tile's box and how many of the points it holds.
    static func cut(_ points: [Point2], into count: Int) -> [(bounds: TileBounds, points: Int)] {
        var tiles: [(bounds: TileBounds, points: Int)] = []
        cut(Array(points.indices), points, bounds: .everywhere, into: max(1, count), appending: &tiles)
        return tiles
    }

    private static func cut(_ members: [Int], _ points: [Point2], bounds: TileBounds, into count: Int,
                            appending tiles: inout [(bounds: TileBounds, points: Int)]) {
        guard count > 1 else { tiles.append((bounds, members.count)); return }
        var box = BBox.empty
        for i in members { box.extend(points[i]) }
        let alongX = box.isEmpty || box.maxX - box.minX >= box.maxY - box.minY
        let coordinate: (Int) -> Double = alongX ? { points[$0].x } : { points[$0].y }
        let sorted = members.sorted { (coordinate($0), $0) < (coordinate($1), $1) }
        let lowerTiles = count / 2
        let k = sorted.count * lowerTiles / count
        // The cut: at the k-th point's coordinate (points on it go up); with no points (a box cut
        // off beside a stack of points on one spot, or more tiles than points), inside the bounds,
        // so that the tiles stay disjoint.
        let at: Double
        if k < sorted.count { at = coordinate(sorted[k]) } else { at = inside(bounds, alongX: alongX) }
        var lower = bounds, upper = bounds
        if alongX { lower.maxX = at; upper.minX = at } else { lower.maxY = at; upper.minY = at }
        let split = sorted.partitioningIndex { coordinate($0) >= at }
        cut(Array(sorted[..<split]), points, bounds: lower, into: lowerTiles, appending: &tiles)
        cut(Array(sorted[split...]), points, bounds: upper, into: count - lowerTiles, appending: &tiles)
    }
}

extension TileCutter {
    /// A coordinate within the bounds along one axis: their middle, or 1 m inside their one finite side, or 0.
    static func inside(_ bounds: TileBounds, alongX: Bool) -> Double {
        switch alongX ? (bounds.minX, bounds.maxX) : (bounds.minY, bounds.maxY) {
        case let (low?, high?): (low + high) / 2
        case let (low?, nil): low + 1
        case let (nil, high?): high - 1
        case (nil, nil): 0
        }
    }
}

extension Array {
    /// The first index whose element satisfies `belongsAbove` (the elements are ordered so that all
    /// that do come after all that do not).
    fileprivate func partitioningIndex(where belongsAbove: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if belongsAbove(self[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

/// How far around a tile its addresses' decisions read (see docs/distributed.md): with `r` the
/// reach (maximum distance) and `D` the largest extent (box diagonal) of the buildings near the tile,
/// an address's candidates are within r, their seers within r + D + r, those seers' candidates'
/// seers another 2r + D out, and their candidates r further; the street sides read same-street
/// neighbours within 50 m and their candidates; the accessory test reads buildings within its
/// radius of a candidate. D is found per tile, growing the halo until no building met is longer.
enum TileHalo {
    static let margin = 1.0

    /// `grid`: the boxes of `footprintBoxes` (`grid(of:)`), so that a tile reads the boxes near it,
    /// not every box of the run (a plan of 1,000 tiles had tested every box a thousand times).
    static func link(around bounds: TileBounds, footprintBoxes: [BBox], grid: BoxGrid, options: LinkOptions) -> TilePlan.Halo {
        link(around: bounds, options: options) { reach in
            var longest = 0.0
            // (The grid's answer encloses the boxes that meet; each is tested exactly.)
            grid.search(bounds.box(expandedBy: reach)) { i, _ in
                let box = footprintBoxes[i]
                guard bounds.meets(box, within: reach) else { return }
                longest = max(longest, box.diagonal)
            }
            return longest
        }
    }

    /// The halo grown until no building it meets is longer than the extent it was grown for;
    /// `longest(reach)`: the longest box diagonal of the buildings within `reach` of the tile (or
    /// more: a wider halo reads more, and decides the same).
    static func link(around bounds: TileBounds, options: LinkOptions, longest: (Double) -> Double) -> TilePlan.Halo {
        let r = options.maxDistance
        var extent = 0.0
        while true {
            let addresses = max(4 * r + 2 * extent, 2 * r + extent + StreetSides.radius) + margin
            let halo = TilePlan.Halo(addresses: addresses, buildings: addresses + r + options.accessoryRadius + margin)
            let found = longest(halo.buildings)
            if found <= extent { return halo }
            extent = found
        }
    }

    /// The grid `link` searches: cells of 500 m, about a tile's halo (buildings are far smaller:
    /// nearly every box lies in one cell).
    static func grid(of footprintBoxes: [BBox], pool: WorkerPool) -> BoxGrid {
        BoxGrid(boxes: footprintBoxes, cellSize: 500, pool: pool)
    }

    /// The run's measures read an address's candidates and its street's neighbours' points.
    static func measures(options: LinkOptions) -> TilePlan.Halo {
        TilePlan.Halo(addresses: StreetSides.radius + margin, buildings: options.maxDistance + margin)
    }
}
