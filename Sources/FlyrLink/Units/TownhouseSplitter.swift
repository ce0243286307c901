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
        var addresses: [Int]
        /// Slice footprints in lon/lat, same order (empty footprints when not asked for).
        var slices: [Footprint]
        /// Unit ids, same order.
        var ids: [String]
    }

    static func split(scene: MetricScene, links: inout [Link], addresses: [AddressPoint], buildings: [Building],
                      frame: LocalMetricFrame, pool: WorkerPool, slicesInLonLat: Bool = true) -> [UnitSlice] {
        // Links grouped by building: link indices sorted by (building, link), cut where the building changes.
        let byBuilding = links.indices.sorted { links[$0].buildingIndex != links[$1].buildingIndex
            ? links[$0].buildingIndex < links[$1].buildingIndex : $0 < $1 }
        var candidates: [(building: Int, members: ArraySlice<Int>)] = []
        var lo = 0
        while lo < byBuilding.count {
            let b = links[byBuilding[lo]].buildingIndex
            var hi = lo + 1
            while hi < byBuilding.count, links[byBuilding[hi]].buildingIndex == b { hi += 1 }
            if hi - lo >= 2 { candidates.append((b, byBuilding[lo..<hi])) }
            lo = hi
        }
        let addressOfLink = links.map(\.addressIndex)  // not a copy of the links, which are changed below
        let plans = pool.map(candidates.count, chunkSize: 256) { context, k -> Plan? in
            let b = candidates[k].building
            let members = candidates[k].members.map { addressOfLink[$0] }
            guard let order = RowDetector.rowOrder(of: members, building: b, scene: scene, addresses: addresses, context: context),
                  let metricSlices = try? cut(building: b, order: order, scene: scene, context: context) else { return nil }
            // Without lon/lat slices (nothing will write them) the plan keeps only the order.
            let lonLat = slicesInLonLat ? metricSlices.map(frame.toLonLat) : metricSlices.map { _ in .empty }
            let ids = order.addresses.map { UUIDv5.make(parts: ["unit", buildings[b].id, addresses[$0].id]) }
            return Plan(building: b, addresses: order.addresses, slices: lonLat, ids: ids)
        }
        var units: [UnitSlice] = []
        units.reserveCapacity(plans.reduce(0) { $0 + ($1?.addresses.count ?? 0) })
        var unitOfAddress = [Int?](repeating: nil, count: addresses.count)
        for case let plan? in plans {
            for (k, a) in plan.addresses.enumerated() {
                unitOfAddress[a] = units.count
                units.append(UnitSlice(id: plan.ids[k], buildingIndex: plan.building, addressIndex: a, unitIndex: k, footprint: plan.slices[k]))
            }
        }
        for i in links.indices { links[i].unitIndex = unitOfAddress[links[i].addressIndex] }
        return units
    }

    /// The footprint cut at the planned positions along the axis; nil when any slice comes out empty.
    /// The footprint is turned into the row's own frame (along, across the axis), where every strip
    /// is an axis-aligned rectangle that GEOS clips directly (ClipByRect, far cheaper than a general
    /// overlay), and each slice is turned back.
    static func cut(building b: Int, order: RowDetector.RowOrder, scene: MetricScene, context: GEOSContext) throws(GEOSError) -> [Footprint]? {
        let inRowFrame = scene.footprints[b].mapRings { ring in ring.map(order.rowCoordinates) }
        let footprint = try context.geometry(inRowFrame)
        let total = scene.areas[b]
        var slices: [Footprint] = []
        let reach = order.width + 10
        var lower = order.start - 10
        for k in 0..<order.addresses.count {
            let upper = k == order.addresses.count - 1 ? order.end + 10 : order.cuts[k]
            let piece = context.footprint(try context.clip(footprint, to: BBox(minX: lower, minY: -reach, maxX: upper, maxY: reach)))
            guard piece.area > total * 0.02 else { return nil }
            slices.append(piece.mapRings { ring in ring.map { order.point(along: $0.x, across: $0.y) } })
            lower = upper
        }
        return slices
    }
}
