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
        /// The members every feature ends with.
        func common(_ p: inout FeatureProperties, height: Double) {
            p.text("status", "not_visited"); p.int("scans_total", 0); p.bool("qr_scanned", false)
            p.number("height", height, decimals: 2); p.number("height_m", height, decimals: 2)
        }
        out.features(run.buildings.count, pool: pool) { b, emit in
            let building = run.buildings[b]
            let linkIDs = run.linksOfBuilding(b)
            let count = linkIDs.count
            let height = building.height ?? defaultHeight
            if !slicesOf[b].isEmpty {
                for u in slicesOf[b] {
                    let unit = run.units[u]
                    let link = run.linkOfAddress[unit.addressIndex].map { run.links[$0] }
                    let a = run.addresses[unit.addressIndex]
                    emit(building.id, .footprint(unit.footprint)) { p in
                        p.text("id", unit.id); p.text("gers_id", building.id); p.text("building_id", building.id)
                        p.text("address_id", a.id); p.int("address_count", count); p.text("source", "gold")
                        p.text("match_method", link?.method.rawValue); p.number("confidence", link?.confidence, decimals: 3)
                        p.text("address_text", a.addressText); p.text("house_number", a.houseNumber); p.text("street_name", a.streetName)
                        p.int("unit_index", unit.unitIndex); p.int("units_count", slicesOf[b].count)
                        common(&p, height: height)
                    }
                }
                return
            }
            let primary = linkIDs.first.map { run.links[$0] }
            let single = count == 1 ? primary.map { run.addresses[$0.addressIndex] } : nil
            emit(building.id, .footprint(building.footprint)) { p in
                p.text("id", building.id); p.text("gers_id", building.id); p.text("building_id", building.id)
                p.text("address_id", single?.id); p.int("address_count", count); p.text("source", "gold")
                p.text("match_method", primary?.method.rawValue); p.number("confidence", primary?.confidence, decimals: 3)
                p.text("address_text", single?.addressText); p.text("house_number", single?.houseNumber)
                p.text("street_name", single?.streetName)
                common(&p, height: height)
            }
        }

        out.features(run.addresses.count, pool: pool) { i, emit in
            guard run.linkOfAddress[i] == nil else { return }
            let a = run.addresses[i]
            emit(a.id, .point(a.location)) { p in
                p.text("id", a.id); p.text("gers_id", a.id); p.text("address_id", a.id); p.int("address_count", 1)
                p.text("source", "address_point"); p.null("match_method"); p.null("confidence")
                p.text("address_text", a.addressText); p.text("house_number", a.houseNumber); p.text("street_name", a.streetName)
                common(&p, height: defaultHeight)
            }
        }
        try out.close()
    }
}
