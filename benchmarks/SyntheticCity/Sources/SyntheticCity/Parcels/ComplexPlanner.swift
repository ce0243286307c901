/// Dense profile: an apartment complex whose 1,000–50,000 units all share one address
/// point (as unit-level registers and Overture's addresses have). One footprint (kind
/// `apartment`), one house number, units `1`…`n`; truth kind `complex`.
enum ComplexPlanner {
    static let length = 60.0...130.0
    static let depth = 24.0...32.0

    static func plan(units: Int, maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let length = rng.uniform(Self.length.lowerBound, Self.length.upperBound)
        let depth = rng.uniform(Self.depth.lowerBound, Self.depth.upperBound)
        let marginLeft = rng.uniform(3, 6), marginRight = rng.uniform(3, 6)
        let width = marginLeft + length + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(3, 6)
        let levels = min(40, max(6, units / 400))
        var plan = ParcelPlan(kind: .complex, width: width)
        let block = ApartmentPlanner.streetBlock(length: length, depth: depth, marginLeft: marginLeft, width: width,
                                                 setback: setback, levels: levels, rng: &rng)
        plan.buildings.append(block.building)
        let facade = block.facade
        let placement = AddressPointPlacer.drawPlacement(&rng)
        let entrance = AddressPointPlacer.point(placement, facade: facade, interiorInset: 1, rng: &rng)
        plan.addresses.reserveCapacity(units)
        for i in 0..<units {
            plan.addresses.append(PlannedAddress(
                numberOffset: 0, unit: String(i + 1), point: entrance, placement: placement, buildingSlot: 0,
                truthKind: .complex))
        }
        return plan
    }
}
