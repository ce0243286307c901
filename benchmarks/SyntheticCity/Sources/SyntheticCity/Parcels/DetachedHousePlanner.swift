/// Detached house, optionally L-shaped or slightly rotated, with an optional garage
/// beside it near the street and an optional shed in the back yard.
enum DetachedHousePlanner {
    static let lShapedShare = 0.30
    static let rotatedShare = 0.25
    static let garageShare = 0.45
    static let shedShare = 0.35
    static let minimumWidth = 12.0

    /// - Parameter garageShare: the dense profile's houses have no garage beside them (0).
    static func plan(maxWidth: Double, garageShare: Double = garageShare, rng: inout SeededGenerator) -> ParcelPlan? {
        guard maxWidth >= minimumWidth else { return nil }
        let hw = rng.uniform(8, 14)
        let hd = rng.uniform(7, 12)
        var (outline, interior) = footprint(width: hw, depth: hd, rng: &rng)
        let angle = rng.chance(rotatedShare) ? rng.uniform(2, 6) * (rng.chance(0.5) ? 1 : -1) * Double.pi / 180 : 0
        let rotation = RigidTransform(angleRadians: angle)
        outline = outline.map(rotation.apply)
        let box = Rect.bounding(outline)
        let setback = rng.uniform(3, 10)

        var garage = rng.chance(garageShare) ? Accessory.draw(area: 18...40, aspect: 1.1...2.0, rng: &rng) : nil
        let garageOnRight = rng.chance(0.5)
        var garageGap = rng.uniform(1, 6)
        var marginLeft = rng.uniform(1, 3), marginRight = rng.uniform(1, 3)
        let limit = min(25, maxWidth)
        func required() -> Double {
            marginLeft + box.width + marginRight + (garage.map { garageGap + $0.width } ?? 0)
        }
        if required() > limit { garageGap = 1; marginLeft = 1; marginRight = 1 }
        if required() > limit { garage = nil }
        guard required() <= limit else { return nil }
        let width = min(max(required(), rng.uniform(minimumWidth, 25)), limit)
        // Spread the slack over both side margins so houses do not all hug one boundary.
        let slack = width - required()
        marginLeft += slack * rng.unit()

        let garageLeft = garage != nil && !garageOnRight
        let houseA = marginLeft + (garageLeft ? garage!.width + garageGap : 0)
        let frame = rotation.translated(houseA - box.minX, setback - box.minY)
        let ring = outline.map { Point($0.x + houseA - box.minX, $0.y + setback - box.minY) }
        let houseBack = setback + box.height

        let levels = [1, 2, 3][rng.weightedIndex([0.35, 0.5, 0.15])]
        var plan = ParcelPlan(kind: .house, width: width)
        plan.buildings.append(PlannedBuilding(
            kind: .house, ring: ring, height: Heights.round(Double(levels) * 3 + rng.uniform(1, 3)), levels: levels))

        var yardStart = houseBack
        if let g = garage {
            let ga = garageLeft ? marginLeft : houseA + box.width + garageGap
            let gv = max(3, setback + rng.uniform(-1.5, 1.5))
            plan.buildings.append(PlannedBuilding(
                kind: .garage, ring: Rect(minX: ga, minY: gv, maxX: ga + g.width, maxY: gv + g.depth).corners,
                height: Heights.round(rng.uniform(2.4, 3.4)), levels: 1))
            yardStart = max(yardStart, gv + g.depth)
        }
        let depth = min(StreetGrid.rowDepth, max(rng.uniform(25, 40), yardStart + 1))
        if rng.chance(shedShare) {
            let s = Accessory.draw(area: 4...15, aspect: 1.0...1.6, rng: &rng)
            let vStart = yardStart + 2
            if vStart + s.depth + 1 <= depth, s.width + 2 <= width {
                let sv = rng.uniform(vStart, depth - 1 - s.depth)
                let sa = rng.uniform(1, width - 1 - s.width)
                plan.buildings.append(PlannedBuilding(
                    kind: .shed, ring: Rect(minX: sa, minY: sv, maxX: sa + s.width, maxY: sv + s.depth).corners,
                    height: Heights.round(rng.uniform(2, 3)), levels: 1))
            }
        }

        let facade = Facade(
            wallStart: ring[0], wallEnd: ring[1], interior: interior, frame: frame,
            stretchCentre: width / 2, stretchWidth: width)
        let placement = AddressPointPlacer.drawPlacement(&rng)
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: "",
            point: AddressPointPlacer.point(placement, facade: facade, interiorInset: 0.5, rng: &rng),
            placement: placement, buildingSlot: 0, truthKind: .house))
        return plan
    }

    /// Ring centred on the origin, front wall first (edge 0→1, lowest v), plus a rectangle
    /// that is certainly inside it. L-shapes lose a back corner so the front stays whole.
    private static func footprint(width hw: Double, depth hd: Double, rng: inout SeededGenerator) -> ([Point], Rect) {
        let x0 = -hw / 2, x1 = hw / 2, y0 = -hd / 2, y1 = hd / 2
        guard rng.chance(lShapedShare) else {
            return ([Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0, y1)],
                    Rect(minX: x0, minY: y0, maxX: x1, maxY: y1))
        }
        let notchW = hw * rng.uniform(0.3, 0.5), notchD = hd * rng.uniform(0.3, 0.5)
        let safe = Rect(minX: x0, minY: y0, maxX: x1, maxY: y1 - notchD)
        if rng.chance(0.5) {
            return ([Point(x0, y0), Point(x1, y0), Point(x1, y1 - notchD), Point(x1 - notchW, y1 - notchD),
                     Point(x1 - notchW, y1), Point(x0, y1)], safe)
        }
        return ([Point(x0, y0), Point(x1, y0), Point(x1, y1), Point(x0 + notchW, y1),
                 Point(x0 + notchW, y1 - notchD), Point(x0, y1 - notchD)], safe)
    }
}

/// Garage or shed size: area and depth/width ratio drawn, sides derived.
struct Accessory {
    var width: Double
    var depth: Double

    static func draw(area: ClosedRange<Double>, aspect: ClosedRange<Double>, rng: inout SeededGenerator) -> Accessory {
        let a = rng.uniform(area.lowerBound, area.upperBound)
        let r = rng.uniform(aspect.lowerBound, aspect.upperBound)
        let w = (a / r).squareRoot()
        return Accessory(width: w, depth: a / w)
    }
}
