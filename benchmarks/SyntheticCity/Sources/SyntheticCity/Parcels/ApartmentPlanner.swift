/// An apartment block: one footprint, one house number, several units whose address
/// points share one entrance or cluster within 1 m of it.
enum ApartmentPlanner {
    /// Sizes, units and how often all units share one point.
    struct Shape {
        var length: ClosedRange<Double>
        var depth: ClosedRange<Double>
        var units: ClosedRange<Int>
        var sharedPointShare: Double

        static let standard = Shape(length: 20...60, depth: 12...20, units: 2...12, sharedPointShare: 0.5)
        /// The measured dense city's blocks: 30–45 × 18–26 m, 2–8 units at one point.
        static let dense = Shape(length: 30...45, depth: 18...26, units: 2...8, sharedPointShare: 1)
    }

    static func plan(maxWidth: Double, shape: Shape = .standard, rng: inout SeededGenerator) -> ParcelPlan? {
        let length = rng.uniform(shape.length.lowerBound, shape.length.upperBound)
        let depth = rng.uniform(shape.depth.lowerBound, shape.depth.upperBound)
        let marginLeft = rng.uniform(3, 6), marginRight = rng.uniform(3, 6)
        let width = marginLeft + length + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(3, 10)
        let levels = rng.int(3, 9)
        var plan = ParcelPlan(kind: .apartment, width: width)
        let block = streetBlock(length: length, depth: depth, marginLeft: marginLeft, width: width, setback: setback,
                                levels: levels, rng: &rng)
        plan.buildings.append(block.building)
        let facade = block.facade
        let placement = AddressPointPlacer.drawPlacement(&rng)
        // Inset 1 m so the ±0.5 m jitter below keeps inside points inside.
        let entrance = AddressPointPlacer.point(placement, facade: facade, interiorInset: 1, rng: &rng)
        let units = rng.int(shape.units.lowerBound, shape.units.upperBound)
        let lettered = rng.chance(0.5)
        let shared = rng.chance(shape.sharedPointShare)
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

    /// A block of `levels` storeys `setback` metres behind the street, between its margins, and the
    /// facade it shows the street (the parcel's own frame: the street along y = 0).
    static func streetBlock(length: Double, depth: Double, marginLeft: Double, width: Double, setback: Double, levels: Int,
                            rng: inout SeededGenerator) -> (building: PlannedBuilding, facade: Facade) {
        let footprint = Rect(minX: marginLeft, minY: setback, maxX: marginLeft + length, maxY: setback + depth)
        let building = PlannedBuilding(kind: .apartment, ring: footprint.corners,
                                       height: Heights.round(Double(levels) * 3 + rng.uniform(0.5, 2)), levels: levels)
        let facade = Facade(
            wallStart: Point(footprint.minX, setback), wallEnd: Point(footprint.maxX, setback),
            interior: footprint, frame: RigidTransform(), stretchCentre: width / 2, stretchWidth: width)
        return (building, facade)
    }

    static func unitLabel(_ i: Int, lettered: Bool) -> String {
        lettered ? String(UnicodeScalar(UInt8(65 + i))) : String(i + 1)
    }
}
