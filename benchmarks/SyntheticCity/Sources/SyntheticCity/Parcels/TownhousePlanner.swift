/// A row of 3–8 townhouses drawn as one polygon, one address per unit with
/// consecutive numbers (on its side of the street) rising along the street.
enum TownhousePlanner {
    static let joggedShare = 0.25

    /// - Parameter streetEdgeShare: hard profile only: the share of rows whose unit points
    ///   all lie at the street edge in front of their unit (0 draws nothing, as before).
    /// - Parameter unitCount: units per row (the dense profile's rows have 3–7).
    static func plan(maxWidth: Double, streetEdgeShare: Double = 0, unitCount: ClosedRange<Int> = 3...8,
                     rng: inout SeededGenerator) -> ParcelPlan? {
        let units = rng.int(unitCount.lowerBound, unitCount.upperBound)
        let unitWidth = rng.uniform(5, 8)
        let marginLeft = rng.uniform(2, 5), marginRight = rng.uniform(2, 5)
        let width = marginLeft + Double(units) * unitWidth + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(3, 8)
        let rowDepth = rng.uniform(8, 12)
        let back = setback + rowDepth

        // Unit boundaries along the street, and each unit's front-wall v.
        let edges = (0...units).map { marginLeft + Double($0) * unitWidth }
        var fronts = [Double](repeating: setback, count: units)
        if rng.chance(joggedShare) {
            let jog = rng.uniform(0.8, 2.0)
            if rng.chance(0.5) {
                // One step in the facade: 6 vertices.
                let split = rng.int(1, units - 1)
                for i in split..<units { fronts[i] = setback + jog }
            } else {
                // A recessed middle stretch: 8 vertices.
                let first = rng.int(1, units - 2)
                let last = rng.int(first + 1, units - 1)
                for i in first..<last { fronts[i] = setback + jog }
            }
        }
        let ring = outline(edges: edges, fronts: fronts, back: back)

        let levels = rng.int(2, 3)
        var plan = ParcelPlan(kind: .townhouseRow, width: width)
        plan.buildings.append(PlannedBuilding(
            kind: .townhouseRow, ring: ring,
            height: Heights.round(Double(levels) * 3 + rng.uniform(1, 2.5)), levels: levels))

        let atStreet = streetEdgeShare > 0 && rng.chance(streetEdgeShare)
        for i in 0..<units {
            if atStreet {
                plan.addresses.append(PlannedAddress(
                    numberOffset: i, unit: "",
                    point: AddressPointPlacer.streetEdge(
                        centre: (edges[i] + edges[i + 1]) / 2, width: unitWidth, frontV: setback, rng: &rng),
                    placement: .streetEdge, buildingSlot: 0, truthKind: .townhouseRow,
                    unitIndex: i, unitsInRow: units))
                continue
            }
            let facade = Facade(
                wallStart: Point(edges[i], fronts[i]), wallEnd: Point(edges[i + 1], fronts[i]),
                interior: Rect(minX: edges[i], minY: fronts[i], maxX: edges[i + 1], maxY: back),
                frame: RigidTransform(), stretchCentre: (edges[i] + edges[i + 1]) / 2, stretchWidth: unitWidth)
            let placement = AddressPointPlacer.drawPlacement(&rng)
            plan.addresses.append(PlannedAddress(
                numberOffset: i, unit: "",
                point: AddressPointPlacer.point(placement, facade: facade, interiorInset: 0.5, rng: &rng),
                placement: placement, buildingSlot: 0, truthKind: .townhouseRow,
                unitIndex: i, unitsInRow: units))
        }
        return plan
    }

    /// Counter-clockwise ring: along the front (stepping at each change of front v),
    /// then the straight back wall. Unit fronts lie on its edges exactly.
    static func outline(edges: [Double], fronts: [Double], back: Double) -> [Point] {
        var ring = [Point(edges[0], fronts[0])]
        for i in 1..<fronts.count where fronts[i] != fronts[i - 1] {
            ring.append(Point(edges[i], fronts[i - 1]))
            ring.append(Point(edges[i], fronts[i]))
        }
        ring.append(Point(edges[edges.count - 1], fronts[fronts.count - 1]))
        ring.append(Point(edges[edges.count - 1], back))
        ring.append(Point(edges[0], back))
        return ring
    }
}
