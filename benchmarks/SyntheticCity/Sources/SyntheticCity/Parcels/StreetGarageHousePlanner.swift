/// Dense profile: a detached house behind a 6 × 6 m garage at the street. The garage's
/// front is 1–3 m from the street edge, the house stands 9 m behind the garage, and the
/// address point is between the street and the garage door (`garage_front`).
enum StreetGarageHousePlanner {
    static let garageSide = 6.0
    static let houseBehindGarage = 9.0

    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let hw = rng.uniform(8, 14), hd = rng.uniform(7, 12)
        let marginLeft = rng.uniform(1, 3), marginRight = rng.uniform(1, 3)
        let width = marginLeft + hw + marginRight
        guard width <= maxWidth else { return nil }
        let gv = rng.uniform(1, 3)
        let hv = gv + garageSide + houseBehindGarage
        let house = Rect(minX: marginLeft, minY: hv, maxX: marginLeft + hw, maxY: hv + hd)
        // The garage stands in front of the house, within its width.
        let ga = marginLeft + (hw - garageSide) * rng.unit()
        let garage = Rect(minX: ga, minY: gv, maxX: ga + garageSide, maxY: gv + garageSide)

        var plan = ParcelPlan(kind: .houseGarageFront, width: width)
        plan.buildings.append(HardParcelPlanner.house(house.corners, levels: HardParcelPlanner.levels(&rng), rng: &rng))
        plan.buildings.append(PlannedBuilding(kind: .garage, ring: garage.corners,
                                              height: Heights.round(rng.uniform(2.4, 3.2)), levels: 1))
        // Between the street edge and the door: within the garage's width, 0.3 m or more from both.
        let point = Point(ga + garageSide * rng.uniform(0.15, 0.85), rng.uniform(0.3, gv - 0.3))
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: "", point: point, placement: .garageFront, buildingSlot: 0, truthKind: .houseGarageFront))
        return plan
    }
}
