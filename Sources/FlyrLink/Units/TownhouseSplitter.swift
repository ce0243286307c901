/// Cuts townhouse rows into one slice per address (DESIGN.md, "Townhouse unit splits").
///
/// A building is a row when its links are several distinct house numbers on one street whose
/// positions spread along the long axis of the footprint's minimum rotated rectangle. The cuts are
/// perpendicular to that axis: an equal division of the footprint's length, each cut nudged only
/// as far as needed to keep every address inside its own slice. Slices are the footprint
/// intersected with strips that tile the plane, so they tile the footprint.
enum TownhouseSplitter {
    struct Plan: Sendable {
        var building: Int
        /// Address indices in slice order.
        var addresses: [Int32]
        /// Slice footprints in lon/lat, same order; none when not asked for (a plan is held per row until
        /// the units are made).
        var slices: [Footprint]
    }

    /// The units of the planned rows (`plans`), each link given its address's unit. Reads no
    /// metric scene: a run frees the scene between the plans and the units. `buildingIDs`: the
    /// id of each planned row's building (by building index).
    static func units(_ plans: [Plan?], links: inout [Link], addresses: [AddressPoint], buildingIDs: [Int: String], pool: WorkerPool) -> [UnitSlice] {
        // Units in plan order (buildings ascending), each plan's at its own offset, and each
        // address's unit: filled on the workers (plans hold distinct addresses).
        var firstUnit = [Int](repeating: 0, count: plans.count + 1)
        for k in plans.indices { firstUnit[k + 1] = firstUnit[k] + (plans[k]?.addresses.count ?? 0) }
        var unitOfAddress = pool.map(addresses.count, chunkSize: 65_536) { _, _ in Int32(-1) }
        let units = unitOfAddress.withUnsafeMutableBufferPointer { unitOf in
            let shared = UncheckedBox(unitOf)
            return ResultSlots<UnitSlice>.collect(firstUnit[plans.count]) { slots in
                pool.forEachRange(plans.count, chunkSize: 1024) { stretch in
                    for k in stretch {
                        guard let plan = plans[k] else { continue }
                        for (j, a) in plan.addresses.lazy.map(Int.init).enumerated() {
                            shared.value[a] = Int32(firstUnit[k] + j)
                            let id = UUIDv5.makeBytes(parts: ["unit", buildingIDs[plan.building]!, addresses[a].id])
                            slots.set(firstUnit[k] + j, UnitSlice(uuid: id, buildingIndex: plan.building, addressIndex: a,
                                                                  unitIndex: j, footprint: plan.slices.isEmpty ? .empty : plan.slices[j]))
                        }
                    }
                }
            }
        }
        links.withUnsafeMutableBufferPointer { buffer in
            let shared = UncheckedBox(buffer)
            pool.forEachRange(buffer.count, chunkSize: 65_536) { stretch in
                for i in stretch {
                    let u = unitOfAddress[shared.value[i].addressIndex]
                    shared.value[i].unitIndex = u < 0 ? nil : Int(u)
                }
            }
        }
        return units
    }

    /// The links of each footprint of a restricted scene (`MetricScene.restricted(to:)`), which
    /// holds every building with two links or more: the only buildings a row can be.
    struct Candidates {
        /// Links grouped by building (link indices ascending within each).
        private let byBuilding: IndexGroups
        private let addressOfLink: [Int32]
        private let buildings: [Int32]

        init(links: [Link], scene: MetricScene, buildingCount: Int, pool: WorkerPool) {
            byBuilding = IndexGroups(count: links.count, keyCount: buildingCount) { links[$0].buildingIndex }
            addressOfLink = pool.map(links.count, chunkSize: 65_536) { _, i in Int32(links[i].addressIndex) }
            buildings = scene.buildings
        }

        /// Footprint `k`'s linked addresses.
        func members(_ k: Int) -> [Int] { byBuilding[Int(buildings[k])].map { Int(addressOfLink[Int($0)]) } }
    }

    /// The plan of every footprint of `scene`, a restricted scene (nil for those that are no row).
    /// `levels`, `types`: each footprint's building's levels and type, where the source gives them.
    static func plans(scene: MetricScene, candidates: Candidates, addresses: [AddressPoint], levels: [Int?] = [],
                      types: [BuildingType] = [], frame: LocalMetricFrame, pool: WorkerPool, slicesInLonLat: Bool) -> [Plan?] {
        pool.map(scene.buildings.count, chunkSize: 256) { context, k -> Plan? in
            let members = candidates.members(k)
            guard let order = RowDetector.rowOrder(of: members, footprint: k, levels: levels.isEmpty ? nil : levels[k],
                                                   type: types.isEmpty ? .unknown : types[k], scene: scene,
                                                   addresses: addresses, context: context),
                  sliceAreas(footprint: k, order: order, scene: scene).allSatisfy({ $0 > scene.footprints[k].area * minimumSliceShare })
            else { return nil }
            // The slices themselves only when something writes them (the plan otherwise keeps the order).
            var lonLat: [Footprint] = []
            if slicesInLonLat {
                let tm = frame.transverseMercator
                guard let slices = try? cut(footprint: k, order: order, scene: scene, context: context, to: tm.inverse) else { return nil }
                lonLat = slices
            }
            return Plan(building: Int(scene.buildings[k]), addresses: order.addresses.map(Int32.init), slices: lonLat)
        }
    }

    /// A row is split only if every slice keeps more than this share of the footprint's area.
    static let minimumSliceShare = 0.02

    /// The stretches along the axis that the slices cover: from before the start to the first cut,
    /// between cuts, from the last cut to past the end.
    static func stretches(_ order: RowDetector.RowOrder) -> [(lower: Double, upper: Double)] {
        let bounds = [order.start - 10] + order.cuts + [order.end + 10]
        return zip(bounds, bounds.dropFirst()).map { ($0, $1) }
    }

    /// The area of every slice, without making the slices: each ring, in the row's frame, clipped
    /// to each stretch (Sutherland–Hodgman against the two cut lines: exact for any simple ring, the
    /// edges it adds along a cut enclosing no area), holes subtracted from their shell. Decides
    /// whether the row is split, in every output mode alike.
    static func sliceAreas(footprint b: Int, order: RowDetector.RowOrder, scene: MetricScene) -> [Double] {
        let footprint = scene.footprints[b]
        let spans = stretches(order)
        var areas = [Double](repeating: 0, count: spans.count)
        var ring: [Point2] = [], once: [Point2] = [], twice: [Point2] = []
        for poly in 0..<footprint.polygonCount {
            let rings = footprint.ringsOfPolygon(poly)
            for r in rings {
                ring.removeAll(keepingCapacity: true)
                for k in footprint.ringRange(r).dropLast() { ring.append(order.rowCoordinates(footprint.points[k])) }  // open ring
                for (s, span) in spans.enumerated() {
                    clip(ring, keepingAbove: span.lower, into: &once)
                    clip(once, keepingAbove: -span.upper, negated: true, into: &twice)
                    let a = abs(Footprint.signedArea(twice))
                    areas[s] += r == rings.lowerBound ? a : -a
                }
            }
        }
        return areas
    }

    /// The part of an open ring with x ≥ bound (with `negated`, −x ≥ bound, i.e. x ≤ −bound).
    private static func clip(_ ring: [Point2], keepingAbove bound: Double, negated: Bool = false, into out: inout [Point2]) {
        out.removeAll(keepingCapacity: true)
        guard var prev = ring.last else { return }
        let sign = negated ? -1.0 : 1.0
        var prevInside = sign * prev.x >= bound
        for p in ring {
            let inside = sign * p.x >= bound
            if inside != prevInside {
                // The crossing of the cut line, interpolated along the edge.
                let t = (bound - sign * prev.x) / (sign * p.x - sign * prev.x)
                out.append(Point2(x: prev.x + t * (p.x - prev.x), y: prev.y + t * (p.y - prev.y)))
            }
            if inside { out.append(p) }
            prev = p
            prevInside = inside
        }
    }

    /// The footprint cut at the planned positions along the axis. The footprint is turned into the
    /// row's own frame (along, across the axis), where every strip is an axis-aligned rectangle that
    /// GEOS clips directly (ClipByRect, far cheaper than a general overlay), and each slice is
    /// turned back, and then by `transform` (into lon/lat), in place: one pass over its points.
    static func cut(footprint b: Int, order: RowDetector.RowOrder, scene: MetricScene, context: GEOSContext,
                    to transform: (Point2) -> Point2 = { $0 }) throws(GEOSError) -> [Footprint] {
        var inRowFrame = scene.footprints.footprint(b)
        inRowFrame.movePoints(order.rowCoordinates)
        let footprint = try context.geometry(inRowFrame)
        let reach = order.width + 10
        return try stretches(order).map { (span) throws(GEOSError) -> Footprint in
            var piece = context.footprint(try context.clip(footprint, to: BBox(minX: span.lower, minY: -reach, maxX: span.upper, maxY: reach)))
            // A cut on a party wall runs through the wall's corners (square within
            // `RowDetector.wallTolerance`), and the clip can return a sliver along the cut beside
            // the slice, no wider than that: not a part of the slice.
            if piece.polygonCount > 1 {
                piece.polygons = piece.polygons.filter { part in
                    !part.shell.allSatisfy { abs($0.x - span.lower) <= RowDetector.wallTolerance }
                        && !part.shell.allSatisfy { abs($0.x - span.upper) <= RowDetector.wallTolerance }
                }
            }
            piece.movePoints { transform(order.point(along: $0.x, across: $0.y)) }
            return piece
        }
    }
}
