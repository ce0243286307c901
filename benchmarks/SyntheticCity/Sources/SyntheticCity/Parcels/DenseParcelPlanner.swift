/// Chooses what each parcel of the dense profile (`generate --profile dense`) holds: the
/// shape of a measured dense city. Complexes are not drawn here; ComplexSchedule places them.
enum DenseParcelPlanner {
    static let kinds: [ParcelKind] = [.house, .houseGarageFront, .townhouseRow, .apartment, .unaddressed, .vacantLot]
    /// Drawn weights; a row or block that does not fit what is left of a block side becomes a
    /// house, so rows and blocks are drawn a little above their realised 17% and 10%.
    static let weights: [Double] = [0.42, 0.069, 0.205, 0.125, 0.095, 0.086]
    static let rowUnits = 3...7

    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let kind = kinds[rng.weightedIndex(weights)]
        let chosen: ParcelPlan?
        switch kind {
        case .house: chosen = house(maxWidth: maxWidth, rng: &rng)
        case .houseGarageFront: chosen = StreetGarageHousePlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .townhouseRow: chosen = TownhousePlanner.plan(maxWidth: maxWidth, unitCount: rowUnits, rng: &rng)
        case .apartment: chosen = ApartmentPlanner.plan(maxWidth: maxWidth, shape: .dense, rng: &rng)
        case .unaddressed: chosen = UnaddressedPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .vacantLot: chosen = VacantLotPlanner.plan(maxWidth: maxWidth, rng: &rng)
        default: preconditionFailure("\(kind) is not drawn by DenseParcelPlanner")
        }
        return chosen ?? house(maxWidth: maxWidth, rng: &rng)
    }

    /// The default detached house without the garage beside it (it may keep a shed in the back yard).
    static func house(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        DetachedHousePlanner.plan(maxWidth: maxWidth, garageShare: 0, rng: &rng)
    }
}
