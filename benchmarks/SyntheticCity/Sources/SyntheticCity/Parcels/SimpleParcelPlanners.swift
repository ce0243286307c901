/// Workshop or commercial shed on its own parcel; it has no address.
enum UnaddressedPlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let length = rng.uniform(10, 25)
        let depth = rng.uniform(8, 20)
        let marginLeft = rng.uniform(2, 4), marginRight = rng.uniform(2, 4)
        let width = marginLeft + length + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(3, 12)
        let levels = rng.chance(0.8) ? 1 : 2
        var plan = ParcelPlan(kind: .unaddressed, width: width)
        plan.buildings.append(PlannedBuilding(
            kind: .unaddressed,
            ring: Rect(minX: marginLeft, minY: setback, maxX: marginLeft + length, maxY: setback + depth).corners,
            height: Heights.round(Double(levels) * 3.5 + rng.uniform(0.5, 2)), levels: levels))
        return plan
    }
}

/// An addressed lot with nothing built on it: truth has no building.
enum VacantLotPlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        guard maxWidth >= 12 else { return nil }
        let width = min(rng.uniform(12, 25), maxWidth)
        let point = Point(rng.uniform(0.2, 0.8) * width, rng.uniform(2, 10))
        var plan = ParcelPlan(kind: .vacantLot, width: width)
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: "", point: point, placement: .lot, buildingSlot: nil, truthKind: .vacantLot))
        return plan
    }
}

/// Chooses what each parcel holds; falls back to a house when a wide kind does not fit
/// in what is left of a block side.
enum ParcelPlanner {
    static let kinds: [ParcelKind] = [.house, .townhouseRow, .apartment, .unaddressed, .vacantLot]
    static let weights: [Double] = [0.66, 0.12, 0.06, 0.08, 0.08]

    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let kind = kinds[rng.weightedIndex(weights)]
        let chosen: ParcelPlan?
        switch kind {
        case .house: chosen = DetachedHousePlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .townhouseRow: chosen = TownhousePlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .apartment: chosen = ApartmentPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .unaddressed: chosen = UnaddressedPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .vacantLot: chosen = VacantLotPlanner.plan(maxWidth: maxWidth, rng: &rng)
        default: preconditionFailure("hard-profile parcel kinds are drawn by HardParcelPlanner")
        }
        return chosen ?? DetachedHousePlanner.plan(maxWidth: maxWidth, rng: &rng)
    }
}
