/// Parcels of the hard profile (`generate --profile hard`): what real cities have and
/// the default city lacks. Written from how lots are built and addressed, not from the
/// linker's rules. Same local frame as every planner: u along the street from the
/// parcel's left edge, v away from the street edge (v = 0).
enum HardParcelPlanner {
    /// Chance that the first lot of a block side (next to the avenue) is a corner lot.
    static let cornerShare = 0.6
    static let kinds: [ParcelKind] = [
        .house, .houseGarageFront, .townhouseRow, .duplex, .apartment, .multiNumber,
        .frontRear, .twoLot, .unaddressed, .vacantLot, .vacantBesideBuilding,
    ]
    static let weights: [Double] = [0.34, 0.12, 0.08, 0.08, 0.04, 0.06, 0.08, 0.05, 0.05, 0.05, 0.05]
    /// Hard townhouse rows: share whose unit points all lie at the street edge.
    static let rowStreetEdgeShare = 0.5

    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let kind = kinds[rng.weightedIndex(weights)]
        let chosen: ParcelPlan?
        switch kind {
        case .house: chosen = DetachedHousePlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .houseGarageFront: chosen = GarageFrontHousePlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .townhouseRow: chosen = TownhousePlanner.plan(maxWidth: maxWidth, streetEdgeShare: rowStreetEdgeShare, rng: &rng)
        case .duplex: chosen = DuplexPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .apartment: chosen = ApartmentPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .multiNumber: chosen = MultiNumberPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .frontRear: chosen = FrontRearPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .twoLot: chosen = TwoLotPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .unaddressed: chosen = UnaddressedPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .vacantLot: chosen = VacantLotPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .vacantBesideBuilding: chosen = VacantBesideBuildingPlanner.plan(maxWidth: maxWidth, rng: &rng)
        case .corner: chosen = nil  // only at the start of a block side, see CityGenerator
        case .complex: preconditionFailure("complexes belong to the dense profile")
        }
        return chosen ?? DetachedHousePlanner.plan(maxWidth: maxWidth, rng: &rng)
    }

    static func house(_ ring: [Point], levels: Int, rng: inout SeededGenerator) -> PlannedBuilding {
        PlannedBuilding(kind: .house, ring: ring, height: Heights.round(Double(levels) * 3 + rng.uniform(1, 3)), levels: levels)
    }

    static func levels(_ rng: inout SeededGenerator) -> Int { [1, 2, 3][rng.weightedIndex([0.35, 0.5, 0.15])] }

    /// inside / outline / front against a plain rectangular front wall (`rect.minY`),
    /// restricted to the stretch `a...b` of that wall (defaults to all of it).
    static func atBuilding(_ placement: Placement, rect: Rect, a: Double? = nil, b: Double? = nil,
                           rng: inout SeededGenerator) -> Point {
        let lo = a ?? rect.minX, hi = b ?? rect.maxX
        switch placement {
        case .inside:
            return Point(rng.uniform(max(lo, rect.minX + 0.5), min(hi, rect.maxX - 0.5)),
                         rng.uniform(rect.minY + 0.5, rect.maxY - 0.5))
        case .outline:
            return Point(lo + (hi - lo) * rng.uniform(0.15, 0.85), rect.minY)
        case .front:
            let u = lo + (hi - lo) * rng.uniform(0.15, 0.85)
            return Point(u, rect.minY - rng.uniform(1, min(8, rect.minY - 0.3)))
        default:
            preconditionFailure("atBuilding draws inside, outline or front only")
        }
    }
}

/// 1. A detached house behind its garage: the garage (30–70 m², a 6 × 6 m one to a two-car one;
/// its own footprint) stands between the street and the house, its front 1–5 m from the street
/// edge, the house 1–10 m behind it. The address point is at the street edge, right in front of
/// the garage, or (20%) inside the house.
enum GarageFrontHousePlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let garage = Accessory.draw(area: 30...70, aspect: 0.75...1.3, rng: &rng)
        let hw = rng.uniform(9, 15), hd = rng.uniform(8, 12)
        let marginLeft = rng.uniform(1.5, 4), marginRight = rng.uniform(1.5, 4)
        let width = marginLeft + max(hw, garage.width) + marginRight
        guard width <= maxWidth else { return nil }
        let gv = rng.uniform(1, 5)
        let hv = gv + garage.depth + rng.uniform(1, 10)
        let ha = marginLeft + max(0, garage.width - hw) / 2
        let house = Rect(minX: ha, minY: hv, maxX: ha + hw, maxY: hv + hd)
        let ga = marginLeft + max(0, hw - garage.width) * rng.unit()
        let garageRect = Rect(minX: ga, minY: gv, maxX: ga + garage.width, maxY: gv + garage.depth)

        var plan = ParcelPlan(kind: .houseGarageFront, width: width)
        plan.buildings.append(HardParcelPlanner.house(house.corners, levels: HardParcelPlanner.levels(&rng), rng: &rng))
        plan.buildings.append(PlannedBuilding(kind: .garage, ring: garageRect.corners,
                                              height: Heights.round(rng.uniform(2.6, 3.6)), levels: 1))
        let placement = [Placement.streetEdge, .garageFront, .inside][rng.weightedIndex([0.4, 0.4, 0.2])]
        let point: Point
        switch placement {
        case .streetEdge:
            point = AddressPointPlacer.streetEdge(centre: (ga + ga + garage.width) / 2, width: garage.width, frontV: gv, rng: &rng)
        case .garageFront:
            // In front of the garage door: within its width, 0.3–4 m short of it (never past the street edge).
            let u = ga + garage.width * rng.uniform(0.15, 0.85)
            point = Point(u, gv - rng.uniform(0.3, max(0.3, min(4, gv - 0.2))))
        default:
            point = HardParcelPlanner.atBuilding(.inside, rect: house, rng: &rng)
        }
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: "", point: point, placement: placement, buildingSlot: 0, truthKind: .houseGarageFront))
        return plan
    }
}

/// 2. A duplex: one footprint, two dwellings side by side, two consecutive house numbers.
/// 55% of duplexes have both points at the street edge in front of their own half;
/// otherwise each half draws outline / front / inside against its own half.
enum DuplexPlanner {
    static let streetEdgeShare = 0.55

    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let halfWidth = rng.uniform(6, 10)
        let marginLeft = rng.uniform(1.5, 4), marginRight = rng.uniform(1.5, 4)
        let width = marginLeft + 2 * halfWidth + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(3, 8)
        let back = setback + rng.uniform(9, 13)
        let edges = [marginLeft, marginLeft + halfWidth, marginLeft + 2 * halfWidth]
        var fronts = [setback, setback]
        if rng.chance(0.25) { fronts[rng.int(0, 1)] += rng.uniform(0.8, 2) }
        let levels = rng.int(1, 2)
        var plan = ParcelPlan(kind: .duplex, width: width)
        plan.buildings.append(PlannedBuilding(
            kind: .duplex, ring: TownhousePlanner.outline(edges: edges, fronts: fronts, back: back),
            height: Heights.round(Double(levels) * 3 + rng.uniform(1, 2.5)), levels: levels))
        let atStreet = rng.chance(streetEdgeShare)
        for i in 0..<2 {
            let placement: Placement
            let point: Point
            if atStreet {
                placement = .streetEdge
                point = AddressPointPlacer.streetEdge(
                    centre: (edges[i] + edges[i + 1]) / 2, width: halfWidth, frontV: setback, rng: &rng)
            } else {
                placement = [Placement.outline, .front, .inside][rng.weightedIndex([0.4, 0.4, 0.2])]
                point = HardParcelPlanner.atBuilding(
                    placement, rect: Rect(minX: edges[i], minY: fronts[i], maxX: edges[i + 1], maxY: back), rng: &rng)
            }
            plan.addresses.append(PlannedAddress(
                numberOffset: i, unit: "", point: point, placement: placement, buildingSlot: 0,
                truthKind: .duplex, unitIndex: i, unitsInRow: 2))
        }
        return plan
    }
}

/// 3. A corner lot at the avenue end of a block side: one building, one address on the
/// street and one on the avenue (number reserved on that avenue by the generator).
enum CornerPlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let bw = rng.uniform(10, 18), bd = rng.uniform(9, 15)
        let sideMargin = rng.uniform(2.5, 6)   // to the avenue's edge at u = 0
        let marginRight = rng.uniform(1.5, 4)
        let width = sideMargin + bw + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(3, 8)
        let rect = Rect(minX: sideMargin, minY: setback, maxX: sideMargin + bw, maxY: setback + bd)
        var plan = ParcelPlan(kind: .corner, width: width)
        plan.buildings.append(HardParcelPlanner.house(rect.corners, levels: HardParcelPlanner.levels(&rng), rng: &rng))

        let streetPlacement = [Placement.inside, .outline, .front, .streetEdge][rng.weightedIndex([0.3, 0.2, 0.25, 0.25])]
        let streetPoint = streetPlacement == .streetEdge
            ? AddressPointPlacer.streetEdge(centre: width / 2, width: width * 0.8, frontV: setback, rng: &rng)
            : HardParcelPlanner.atBuilding(streetPlacement, rect: rect, rng: &rng)
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: "", point: streetPoint, placement: streetPlacement, buildingSlot: 0, truthKind: .corner))

        let avenuePlacement = rng.chance(0.7) ? Placement.sideStreet : .inside
        let avenuePoint = avenuePlacement == .sideStreet
            ? Point(rng.uniform(0.5, sideMargin - 0.4), rect.minY + bd * rng.uniform(0.15, 0.85))
            : HardParcelPlanner.atBuilding(.inside, rect: rect, rng: &rng)
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: "", point: avenuePoint, placement: avenuePlacement, buildingSlot: 0,
            truthKind: .corner, onCrossStreet: true))
        return plan
    }
}

/// 4. A front house and a smaller rear unit behind it (ADU, back cottage). The rear unit
/// has its own house number (50%) or the front house's number with unit `B` (the front
/// house then has unit `A` or none). A driveway strip runs beside the front house.
enum FrontRearPlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let hw = rng.uniform(8, 13), hd = rng.uniform(7, 11)
        let driveway = rng.uniform(2.8, 4.5)
        let otherMargin = rng.uniform(1, 3)
        let width = driveway + hw + otherMargin
        guard width <= maxWidth else { return nil }
        let drivewayLeft = rng.chance(0.5)
        let ha = drivewayLeft ? driveway : otherMargin
        let setback = rng.uniform(3, 8)
        let front = Rect(minX: ha, minY: setback, maxX: ha + hw, maxY: setback + hd)
        // The rear unit is always the smaller dwelling: at most 80% of the front house's area.
        let rw = rng.uniform(5, 9), rd = min(rng.uniform(5, 8), 0.8 * hw * hd / rw)
        let rv = front.maxY + rng.uniform(3, 8)
        let ra = rng.uniform(1, width - 1 - rw)
        let rear = Rect(minX: ra, minY: rv, maxX: ra + rw, maxY: rv + rd)

        var plan = ParcelPlan(kind: .frontRear, width: width)
        plan.buildings.append(HardParcelPlanner.house(front.corners, levels: HardParcelPlanner.levels(&rng), rng: &rng))
        let rearLevels = rng.chance(0.8) ? 1 : 2
        plan.buildings.append(HardParcelPlanner.house(rear.corners, levels: rearLevels, rng: &rng))

        let ownNumber = rng.chance(0.5)
        let frontUnit = ownNumber ? "" : (rng.chance(0.5) ? "A" : "")
        let frontPlacement = AddressPointPlacer.drawPlacement(&rng)
        let frontPoint: Point
        if frontPlacement == .streetDrift {
            frontPoint = Point(width / 2 + rng.uniform(-0.35, 0.35) * width, rng.uniform(0.5, 2.5))
        } else {
            frontPoint = HardParcelPlanner.atBuilding(frontPlacement, rect: front, rng: &rng)
        }
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: frontUnit, point: frontPoint, placement: frontPlacement, buildingSlot: 0,
            truthKind: .frontHouse))

        let rearPlacement = [Placement.inside, .outline, .streetEdge, .driveway][rng.weightedIndex([0.35, 0.15, 0.3, 0.2])]
        let drivewayStart = drivewayLeft ? 0.0 : front.maxX
        let drivewayEnd = drivewayLeft ? front.minX : width
        let rearPoint: Point
        switch rearPlacement {
        case .inside, .outline:
            rearPoint = HardParcelPlanner.atBuilding(rearPlacement, rect: rear, rng: &rng)
        case .streetEdge:
            // At the street where the driveway meets it.
            let centre = (drivewayStart + drivewayEnd) / 2
            rearPoint = AddressPointPlacer.streetEdge(centre: centre, width: drivewayEnd - drivewayStart, frontV: setback, rng: &rng)
        default:
            // On the driveway, beside the front house: ≥ 0.5 m from its side wall.
            let u = drivewayLeft ? rng.uniform(0.5, drivewayEnd - 0.5) : rng.uniform(drivewayStart + 0.5, width - 0.3)
            rearPoint = Point(u, rng.uniform(front.minY, front.maxY))
        }
        plan.addresses.append(PlannedAddress(
            numberOffset: ownNumber ? 1 : 0, unit: ownNumber ? "" : "B", point: rearPoint, placement: rearPlacement,
            buildingSlot: 1, truthKind: .rearUnit))
        return plan
    }
}

/// 5. Several house numbers on one small apartment building (e.g. 571, 573, 575, 577):
/// one footprint, 3–6 consecutive numbers, no unit labels. Per building: all points at
/// the street edge (spread along the frontage), all on the front wall, or all inside.
enum MultiNumberPlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let count = rng.int(3, 6)
        let length = max(rng.uniform(14, 30), Double(count) * 4)
        let depth = rng.uniform(10, 16)
        let marginLeft = rng.uniform(2, 4), marginRight = rng.uniform(2, 4)
        let width = marginLeft + length + marginRight
        guard width <= maxWidth else { return nil }
        let setback = rng.uniform(2, 8)
        let rect = Rect(minX: marginLeft, minY: setback, maxX: marginLeft + length, maxY: setback + depth)
        let levels = rng.int(2, 4)
        var plan = ParcelPlan(kind: .multiNumber, width: width)
        plan.buildings.append(PlannedBuilding(
            kind: .apartment, ring: rect.corners,
            height: Heights.round(Double(levels) * 3 + rng.uniform(0.5, 2)), levels: levels))
        let placement = [Placement.streetEdge, .outline, .inside][rng.weightedIndex([0.45, 0.3, 0.25])]
        let share = length / Double(count)
        for i in 0..<count {
            let a = marginLeft + Double(i) * share
            let point = placement == .streetEdge
                ? AddressPointPlacer.streetEdge(centre: a + share / 2, width: share * 0.6, frontV: setback, rng: &rng)
                : HardParcelPlanner.atBuilding(placement, rect: rect, a: a, b: a + share, rng: &rng)
            plan.addresses.append(PlannedAddress(
                numberOffset: i, unit: "", point: point, placement: placement, buildingSlot: 0, truthKind: .multiNumber))
        }
        return plan
    }
}

/// 6. One building drawn across two lots: each lot keeps its own (consecutive) number and
/// both addresses belong to the one footprint. Points near each lot's centre (parcel
/// geocoding), at the street edge in front of the own lot, or on/inside the own lot's part.
enum TwoLotPlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let lots = [rng.uniform(10, 18), rng.uniform(10, 18)]
        let width = lots[0] + lots[1]
        guard width <= maxWidth else { return nil }
        let a = rng.uniform(1, 4), b = width - rng.uniform(1, 4)
        let setback = rng.uniform(2, 8)
        let depth = rng.uniform(10, 18)
        let rect = Rect(minX: a, minY: setback, maxX: b, maxY: setback + depth)
        let lotDepth = rng.uniform(max(25, rect.maxY + 2), 40)
        var plan = ParcelPlan(kind: .twoLot, width: width)
        plan.buildings.append(HardParcelPlanner.house(rect.corners, levels: rng.int(1, 3), rng: &rng))
        let bounds = [(0.0, lots[0]), (lots[0], width)]
        for i in 0..<2 {
            let (l0, l1) = bounds[i]
            let placement = [Placement.parcelCentroid, .streetEdge, .outline, .inside][rng.weightedIndex([0.4, 0.3, 0.15, 0.15])]
            let point: Point
            switch placement {
            case .parcelCentroid:
                point = Point((l0 + l1) / 2 + rng.uniform(-1, 1), lotDepth / 2 + rng.uniform(-1, 1))
            case .streetEdge:
                point = AddressPointPlacer.streetEdge(centre: (l0 + l1) / 2, width: (l1 - l0) * 0.7, frontV: setback, rng: &rng)
            default:
                point = HardParcelPlanner.atBuilding(placement, rect: rect, a: max(l0, a), b: min(l1, b), rng: &rng)
            }
            plan.addresses.append(PlannedAddress(
                numberOffset: i, unit: "", point: point, placement: placement, buildingSlot: 0, truthKind: .twoLot))
        }
        return plan
    }
}

/// 7. A vacant lot beside an unaddressed shed or workshop on the next lot: the vacant
/// lot's address point is 0.5–3 m from the shared lot line, level with the building, so
/// its nearest building is that unaddressed one. Truth: no building.
enum VacantBesideBuildingPlanner {
    static func plan(maxWidth: Double, rng: inout SeededGenerator) -> ParcelPlan? {
        let vacant = rng.uniform(12, 20)
        let workshop = rng.chance(0.5)
        let size = workshop
            ? Accessory(width: rng.uniform(8, 20), depth: rng.uniform(6, 15))
            : Accessory.draw(area: 6...15, aspect: 1.0...1.6, rng: &rng)
        let gap = rng.uniform(1, 3), otherMargin = rng.uniform(2, 4)
        let width = vacant + gap + size.width + otherMargin
        guard width <= maxWidth else { return nil }
        let buildingLeft = rng.chance(0.5)
        let sv = rng.uniform(3, 12)
        let line = buildingLeft ? otherMargin + size.width + gap : vacant   // the shared lot line
        let ba = buildingLeft ? otherMargin : vacant + gap
        let rect = Rect(minX: ba, minY: sv, maxX: ba + size.width, maxY: sv + size.depth)
        var plan = ParcelPlan(kind: .vacantBesideBuilding, width: width)
        let levels = workshop && rng.chance(0.2) ? 2 : 1
        plan.buildings.append(PlannedBuilding(
            kind: workshop ? .unaddressed : .shed, ring: rect.corners,
            height: Heights.round(workshop ? Double(levels) * 3.5 + rng.uniform(0.5, 2) : rng.uniform(2, 3)), levels: levels))
        let offset = rng.uniform(0.5, 3)
        let point = Point(buildingLeft ? line + offset : line - offset,
                          rng.uniform(rect.minY + 0.3 * size.depth, rect.maxY - 0.3 * size.depth))
        plan.addresses.append(PlannedAddress(
            numberOffset: 0, unit: "", point: point, placement: .lot, buildingSlot: nil, truthKind: .vacantBesideBuilding))
        return plan
    }
}
