/// The fixed street grid: east-west "Streets" and north-south "Avenues" with square
/// blocks between them. East-west streets own a 40 m strip of parcels on each side
/// across the full block width; north-south streets own the middle of each block side,
/// so no two parcel rows ever overlap.
struct StreetGrid {
    static let streetWidth = 12.0          // kerb-to-kerb reserve between parcel rows
    static let blockInner = 220.0          // block edge length inside the streets
    static let rowDepth = 40.0             // deepest parcel allowed in a row
    static let rowGap = 2.0                // keeps avenue parcels clear of street rows
    static let pitch = blockInner + streetWidth
    /// Rough buildings per block, used only to choose a square-ish grid for N buildings.
    static let buildingsPerBlockEstimate = 40.0

    /// Number of blocks east-west; block rows are added northwards until N buildings exist.
    let blocksEastWest: Int

    init(targetBuildings: Int) {
        let blocks = Double(max(targetBuildings, 1)) / Self.buildingsPerBlockEstimate
        blocksEastWest = max(1, Int(blocks.squareRoot().rounded(.up)))
    }

    /// Parcel-row stretches along east-west street k, one per block (u = world x).
    func streetSegments() -> [ClosedRange<Double>] {
        (0..<blocksEastWest).map { j in
            let start = Double(j) * Self.pitch + Self.streetWidth / 2
            return start...(start + Self.blockInner)
        }
    }

    /// The stretch of avenue frontage inside block row k (u = world y), between the street rows.
    func avenueSegment(blockRow k: Int) -> ClosedRange<Double> {
        let blockStart = Double(k) * Self.pitch + Self.streetWidth / 2
        let start = blockStart + Self.rowDepth + Self.rowGap
        let end = blockStart + Self.blockInner - Self.rowDepth - Self.rowGap
        return start...end
    }

    /// East-west street k: odd numbers on the north side, even on the south side.
    func street(_ k: Int, oddSide: Bool) -> StreetSide {
        let centre = Double(k) * Self.pitch
        let half = Self.streetWidth / 2
        return oddSide
            ? StreetSide(baseX: 0, baseY: centre + half, alongX: 1, alongY: 0, awayX: 0, awayY: 1)
            : StreetSide(baseX: 0, baseY: centre - half, alongX: 1, alongY: 0, awayX: 0, awayY: -1)
    }

    /// North-south avenue j: odd numbers on the east side, even on the west side.
    func avenue(_ j: Int, oddSide: Bool) -> StreetSide {
        let centre = Double(j) * Self.pitch
        let half = Self.streetWidth / 2
        return oddSide
            ? StreetSide(baseX: centre + half, baseY: 0, alongX: 0, alongY: 1, awayX: 1, awayY: 0)
            : StreetSide(baseX: centre - half, baseY: 0, alongX: 0, alongY: 1, awayX: -1, awayY: 0)
    }
}

/// One side of a street: maps (u along the street, v away from the kerb line) to world metres.
/// Axis vectors are ±1/0, so the mapping is exact and keeps points on walls.
struct StreetSide {
    var baseX: Double, baseY: Double
    var alongX: Double, alongY: Double
    var awayX: Double, awayY: Double

    func world(u: Double, v: Double) -> Point {
        Point(baseX + alongX * u + awayX * v, baseY + alongY * u + awayY * v)
    }
}
