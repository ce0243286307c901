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
        /// Slice footprints in lon/lat, same order.
        var slices: [Footprint]
    }

    static func split(scene: MetricScene, links: inout [Link], addresses: [AddressPoint], buildings: [Building],
                      frame: LocalMetricFrame, pool: WorkerPool) -> [UnitSlice] {
        var groups: [Int: [Int]] = [:]  // building → link indices
        for (i, l) in links.enumerated() { groups[l.buildingIndex, default: []].append(i) }
        let candidates = groups.keys.filter { groups[$0]!.count >= 2 }.sorted()
        let linkSnapshot = links
        let plans = pool.map(candidates.count, chunkSize: 256, chunkState: { try? frame.makeTransformer() }) { context, transformer, k -> Plan? in
            let b = candidates[k]
            let members = groups[b]!.map { linkSnapshot[$0].addressIndex }
            guard let order = RowDetector.rowOrder(of: members, building: b, scene: scene, addresses: addresses, context: context),
                  let metricSlices = try? cut(building: b, order: order, scene: scene, context: context),
                  let t = transformer else { return nil }
            let lonLat = metricSlices.map { f in f.mapRings { ring in var r = ring; t.inverse(&r); return r } }
            return Plan(building: b, addresses: order.addresses, slices: lonLat)
        }
        var units: [UnitSlice] = []
        var unitOfAddress: [Int: Int] = [:]
        for plan in plans.compactMap({ $0 }) {
            for (k, a) in plan.addresses.enumerated() {
                let id = UUIDv5.make(parts: ["unit", buildings[plan.building].id, addresses[a].id])
                unitOfAddress[a] = units.count
                units.append(UnitSlice(id: id, buildingIndex: plan.building, addressIndex: a, unitIndex: k, footprint: plan.slices[k]))
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

extension Footprint {
    func mapRings(_ transform: ([Point2]) -> [Point2]) -> Footprint {
        Footprint(polygons: polygons.map { Polygon(rings: $0.rings.map(transform)) })
    }
}
