/// An apartment block: one footprint, one house number, several units whose address
/// points share one entrance or cluster within 1 m of it.
enum ApartmentPlanner {
    static let sharedPointShare = 0.5

    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let length = rng.uniform(20, 60)
        let depth = rng.uniform(12, 20)
        let marginLeft = rng.uniform(3, 6), marginRight = rng.uniform(3, 6)
        let width = marginLeft + length + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(3, 10)
        let footprint = Rect(minX: marginLeft, minY: setback, maxX: marginLeft + length, maxY: setback + depth)

        let levels = rng.int(3, 9)
        var plan = ParcelPlan(kind: .apartment, width: width)
        plan.buildings.append(PlannedBuilding(
            kind: .apartment, ring: footprint.corners,
            height: Heights.round(Double(levels) * 3 + rng.uniform(0.5, 2)), levels: levels))

        let facade = Facade(
            wallStart: Point(footprint.minX, setback), wallEnd: Point(footprint.maxX, setback),
            interior: footprint, frame: RigidTransform(), stretchCentre: width / 2, stretchWidth: width)
        let placement = AddressPointPlacer.drawPlacement(&rng)
        // Inset 1 m so the ±0.5 m jitter below keeps inside points inside.
        let entrance = AddressPointPlacer.point(placement, facade: facade, interiorInset: 1, rng: &rng)
        let units = rng.int(2, 12)
        let lettered = rng.chance(0.5)
        let shared = rng.chance(sharedPointShare)
        for i in 0..<units {
            // Jitter only along the street: keeps outline points on the front wall and
            // front/drift points at their distance from it.
            let point = shared ? entrance : Point(entrance.x + rng.uniform(-0.5, 0.5), entrance.y)
            plan.addresses.append(PlannedAddress(
                numberOffset: 0, unit: unitLabel(i, lettered: lettered), point: point,
                placement: placement, buildingSlot: 0, truthKind: .apartment))
        }
        return plan
    }

    static func unitLabel(_ i: Int, lettered: Bool) -> String {
        lettered ? String(UnicodeScalar(UInt8(65 + i))) : String(i + 1)
    }
}
