/// Walks the street grid block row by block row — first east-west street k (odd side,
/// then even side, west to east), then every avenue's frontage in block row k (odd
/// side, then even side, south to north) — filling each stretch with parcels until
/// exactly `config.buildings` buildings exist. One PRNG stream, consumed in this
/// fixed order, makes the output a pure function of (buildings, seed, origin).
public struct CityGenerator {
    public let config: CityConfig

    public init(config: CityConfig) {
        self.config = config
    }

    public func generate(into sink: CitySink) throws -> CityStats {
        var run = GenerationRun(target: config.buildings, seed: config.seed, profile: config.profile, sink: sink)
        try run.walkGrid()
        return run.stats
    }
}

private struct GenerationRun {
    let target: Int
    let profile: CityProfile
    let sink: CitySink
    let grid: StreetGrid
    var rng: SeededGenerator
    var regions = AddressRegions()
    var complexes: ComplexSchedule
    var stats: CityStats

    init(target: Int, seed: UInt64, profile: CityProfile, sink: CitySink) {
        self.target = target
        self.profile = profile
        stats = CityStats(profile: profile)
        self.sink = sink
        grid = StreetGrid(targetBuildings: target)
        rng = SeededGenerator(seed: seed)
        complexes = ComplexSchedule(target: profile == .dense ? target : 0, seed: seed)
    }

    var done: Bool { stats.buildings >= target }

    mutating func walkGrid() throws {
        let avenues = grid.blocksEastWest + 1
        // Avenue numbering continues from one block row to the next.
        var avenueNext = [[Int]](repeating: [1, 2], count: avenues)
        let avenueNames = (0..<avenues).map { StreetNames.northSouth($0, profile: profile) }
        var blockRow = 0
        while !done {
            let name = StreetNames.eastWest(blockRow, profile: profile)
            // Hard profile: the first lot of each block side may be a corner lot that also
            // fronts the avenue at its west end (that avenue's east, odd side). Its avenue
            // number is reserved here, between the avenue's previous block row (south of
            // this street) and its next one: south side of the street first.
            var cornerNumbers: [(south: Int, north: Int)] = []
            if profile == .hard {
                for j in 0..<grid.blocksEastWest {
                    cornerNumbers.append((avenueNext[j][0], avenueNext[j][0] + 2))
                    avenueNext[j][0] += 4
                }
            }
            for odd in [true, false] {
                var next = odd ? 1 : 2
                for (j, segment) in grid.streetSegments().enumerated() where !done {
                    let corner = cornerNumbers.isEmpty ? nil
                        : (name: avenueNames[j], number: odd ? cornerNumbers[j].north : cornerNumbers[j].south)
                    try fill(segment, side: grid.street(blockRow, oddSide: odd), street: name, next: &next, corner: corner)
                }
            }
            for j in 0..<avenues where !done {
                for (sideIndex, odd) in [true, false].enumerated() where !done {
                    try fill(grid.avenueSegment(blockRow: blockRow), side: grid.avenue(j, oddSide: odd),
                             street: avenueNames[j], next: &avenueNext[j][sideIndex])
                }
            }
            blockRow += 1
        }
        stats.streets = blockRow == 0 ? 0 : blockRow + avenues
        if profile == .dense {
            let reused = StreetNames.reusedPerDirection
            stats.streetNames = blockRow == 0 ? 0 : min(blockRow, reused) + min(avenues, reused)
        }
    }

    private mutating func fill(
        _ segment: ClosedRange<Double>, side: StreetSide, street: String, next: inout Int,
        corner: (name: String, number: Int)? = nil
    ) throws {
        var cursor = segment.lowerBound
        if profile == .hard {
            if !done, let corner, rng.chance(HardParcelPlanner.cornerShare),
               let plan = CornerPlanner.plan(maxWidth: segment.upperBound - cursor, rng: &rng) {
                try emit(plan, side: side, u0: cursor, street: street, next: &next, crossStreet: corner)
                cursor += plan.width
            }
            while !done, let plan = HardParcelPlanner.plan(maxWidth: segment.upperBound - cursor, rng: &rng) {
                try emit(plan, side: side, u0: cursor, street: street, next: &next)
                cursor += plan.width
            }
            return
        }
        if profile == .dense {
            while !done {
                let maxWidth = segment.upperBound - cursor
                if let units = complexes.next(buildings: stats.buildings),
                   let plan = ComplexPlanner.plan(units: units, maxWidth: maxWidth, rng: &rng) {
                    complexes.placed()
                    try emit(plan, side: side, u0: cursor, street: street, next: &next)
                    stats.complexes?.append(ComplexRecord(buildingId: IdFormat.building(stats.buildings), units: units))
                    cursor += plan.width
                    continue
                }
                guard let plan = DenseParcelPlanner.plan(maxWidth: maxWidth, rng: &rng) else { break }
                try emit(plan, side: side, u0: cursor, street: street, next: &next)
                cursor += plan.width
            }
            return
        }
        while !done, let plan = ParcelPlanner.plan(maxWidth: segment.upperBound - cursor, rng: &rng) {
            try emit(plan, side: side, u0: cursor, street: street, next: &next)
            cursor += plan.width
        }
    }

    private mutating func emit(
        _ plan: ParcelPlan, side: StreetSide, u0: Double, street: String, next: inout Int,
        crossStreet: (name: String, number: Int)? = nil
    ) throws {
        stats.parcels += 1
        stats.parcelsByKind[plan.kind.rawValue, default: 0] += 1
        var indexOfSlot: [Int] = []
        for planned in plan.buildings where !done {
            var ring = planned.ring.map { side.world(u: u0 + $0.x, v: $0.y) }
            // Mirrored street sides flip orientation; RFC 7946 wants counter-clockwise.
            if Polygon.signedArea(ring) < 0 { ring.reverse() }
            stats.buildings += 1
            ring.forEach { stats.include($0) }
            stats.buildingsByKind[planned.kind.rawValue, default: 0] += 1
            indexOfSlot.append(stats.buildings)
            try sink.add(building: SyntheticBuilding(
                index: stats.buildings, kind: planned.kind, ring: ring, height: planned.height, levels: planned.levels))
        }
        guard !plan.addresses.isEmpty else { return }
        // Region from the middle of the parcel row so all units of a parcel agree.
        let centre = side.world(u: u0 + plan.width / 2, v: StreetGrid.rowDepth / 2)
        let postalCode = regions.postalCode(at: centre)
        let locality = regions.locality(at: centre)
        var highestOffset = 0
        for planned in plan.addresses {
            // The city's last parcel may be cut short; its addresses on missing buildings go too.
            if let slot = planned.buildingSlot, slot >= indexOfSlot.count { continue }
            let point = side.world(u: u0 + planned.point.x, v: planned.point.y)
            stats.addresses += 1
            stats.include(point)
            stats.addressesByKind[planned.truthKind.rawValue, default: 0] += 1
            stats.addressesByPlacement[planned.placement.rawValue, default: 0] += 1
            var houseNumber = next + 2 * planned.numberOffset
            var streetName = street
            if planned.onCrossStreet, let crossStreet {
                houseNumber = crossStreet.number
                streetName = crossStreet.name
            } else {
                highestOffset = max(highestOffset, planned.numberOffset)
            }
            try sink.add(address: SyntheticAddress(
                index: stats.addresses, houseNumber: houseNumber, streetName: streetName,
                unit: planned.unit, postalCode: postalCode, locality: locality, point: point,
                truth: AddressTruth(
                    buildingIndex: planned.buildingSlot.map { indexOfSlot[$0] }, kind: planned.truthKind,
                    placement: planned.placement, unitIndex: planned.unitIndex, unitsInRow: planned.unitsInRow)))
        }
        next += 2 * (highestOffset + 1)
    }
}
