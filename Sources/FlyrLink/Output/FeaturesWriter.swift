/// features.geojson: what `rpc_get_campaign_full_features` returns. One feature per building
/// (or per unit slice of a split townhouse row), then one Point per unlinked address, with the
/// properties of DESIGN.md's table.
enum FeaturesWriter {
    static let defaultHeight = 10.0

    static func write(_ run: LinkRun, to path: String) throws {
        let out = try GeoJSONWriter(path: path)
        var slicesOf = [[Int]](repeating: [], count: run.buildings.count)
        for (u, unit) in run.units.enumerated() { slicesOf[unit.buildingIndex].append(u) }

        let pool = WorkerPool(threads: run.options.threads)
        out.features(run.buildings.count, pool: pool) { b, emit in
            let building = run.buildings[b]
            let linkIDs = run.linksOfBuilding(b)
            let count = linkIDs.count
            let height = building.height ?? defaultHeight
            let common: [(key: String, value: PropertyValue)] = [
                ("status", .text("not_visited")), ("scans_total", .int(0)), ("qr_scanned", .bool(false)),
                ("height", .number(height, decimals: 2)), ("height_m", .number(height, decimals: 2)),
            ]
            if !slicesOf[b].isEmpty {
                for u in slicesOf[b] {
                    let unit = run.units[u]
                    let link = run.linkOfAddress[unit.addressIndex].map { run.links[$0] }
                    let a = run.addresses[unit.addressIndex]
                    var props: [(key: String, value: PropertyValue)] = [
                        ("id", .text(unit.id)), ("gers_id", .text(building.id)), ("building_id", .text(building.id)),
                        ("address_id", .text(a.id)), ("address_count", .int(count)), ("source", .text("gold")),
                        ("match_method", .text(link?.method.rawValue)), ("confidence", .number(link?.confidence, decimals: 3)),
                        ("address_text", .text(a.addressText)), ("house_number", .text(a.houseNumber)), ("street_name", .text(a.streetName)),
                        ("unit_index", .int(unit.unitIndex)), ("units_count", .int(slicesOf[b].count)),
                    ]
                    props += common
                    emit(building.id, .footprint(unit.footprint), props)
                }
                return
            }
            let primary = linkIDs.first.map { run.links[$0] }
            let single = count == 1 ? primary.map { run.addresses[$0.addressIndex] } : nil
            var props: [(key: String, value: PropertyValue)] = [
                ("id", .text(building.id)), ("gers_id", .text(building.id)), ("building_id", .text(building.id)),
                ("address_id", .text(single?.id)), ("address_count", .int(count)), ("source", .text("gold")),
                ("match_method", .text(primary?.method.rawValue)), ("confidence", .number(primary?.confidence, decimals: 3)),
                ("address_text", .text(single?.addressText)), ("house_number", .text(single?.houseNumber)),
                ("street_name", .text(single?.streetName)),
            ]
            props += common
            emit(building.id, .footprint(building.footprint), props)
        }

        out.features(run.addresses.count, pool: pool) { i, emit in
            guard run.linkOfAddress[i] == nil else { return }
            let a = run.addresses[i]
            let props: [(key: String, value: PropertyValue)] = [
                ("id", .text(a.id)), ("gers_id", .text(a.id)), ("address_id", .text(a.id)), ("address_count", .int(1)),
                ("source", .text("address_point")), ("match_method", .null), ("confidence", .null),
                ("address_text", .text(a.addressText)), ("house_number", .text(a.houseNumber)), ("street_name", .text(a.streetName)),
                ("status", .text("not_visited")), ("scans_total", .int(0)), ("qr_scanned", .bool(false)),
                ("height", .number(defaultHeight, decimals: 2)), ("height_m", .number(defaultHeight, decimals: 2)),
            ]
            emit(a.id, .point(a.location), props)
        }
        try out.close()
    }
}
