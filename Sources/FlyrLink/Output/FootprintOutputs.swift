/// buildings.geojson, units.geojson and features.geojson in one pass over the buildings: each
/// footprint's coordinates are formatted once and copied into both files that carry it.
package enum FootprintOutputs {
    package static func write(_ run: LinkRun, buildings: String, units: String, features: String) throws {
        let buildingsOut = try GeoJSONWriter(path: buildings)
        let unitsOut = try GeoJSONWriter(path: units)
        let featuresOut = try GeoJSONWriter(path: features)
        let pool = WorkerPool(threads: run.options.threads)
        // Each building's slices, in unit order.
        let slicesOf = IndexGroups(count: run.units.count, keyCount: run.buildings.count) { run.units[$0].buildingIndex }
        // units.geojson lists the units in their own order, so it is written in this pass only when
        // that is building order (as the splitter makes them).
        let unitsInPass = zip(run.units, run.units.dropFirst()).allSatisfy { $0.buildingIndex <= $1.buildingIndex }
        let (buildingsFile, unitsFile, featuresFile) = (0, 1, 2)
        GeoJSONWriter.features(run.buildings.count, into: [buildingsOut, unitsOut, featuresOut], pool: pool) { b, rows in
            guard run.writes(building: b) else { return }
            let building = run.buildings[b]
            let id = building.id  // (made once from where it is packed, written up to five times)
            let slices = slicesOf[b]
            rows.scratch.removeAll(keepingCapacity: true)
            GeoJSONWriter.appendGeometry(.stored(run.buildingFootprints[b]), to: &rows.scratch)
            GeoJSONWriter.appendFeature(id: id, formattedGeometry: rows.scratch, to: &rows.outputs[buildingsFile]) { p in
                p.text("id", id); p.text("gers_id", id); p.text("source", "gold")
                p.number("height_m", building.height, decimals: 2); p.int("levels", building.levels)
                p.int("address_count", run.linksOfBuilding(b).count)
                p.bool("is_townhome_row", !slices.isEmpty); p.int("units_count", slices.count)
            }
            if slices.isEmpty {
                GeoJSONWriter.appendFeature(id: id, formattedGeometry: rows.scratch, to: &rows.outputs[featuresFile]) { p in
                    FeaturesWriter.building(b, id: id, of: run, &p)
                }
                return
            }
            for u in slices.lazy.map(Int.init) {
                rows.scratch.removeAll(keepingCapacity: true)
                GeoJSONWriter.appendGeometry(.footprint(run.units[u].footprint), to: &rows.scratch)
                if unitsInPass {
                    GeoJSONWriter.appendFeature(id: run.units[u].id, formattedGeometry: rows.scratch, to: &rows.outputs[unitsFile]) { p in
                        unitProperties(u, of: run, &p)
                    }
                }
                GeoJSONWriter.appendFeature(id: id, formattedGeometry: rows.scratch, to: &rows.outputs[featuresFile]) { p in
                    FeaturesWriter.slice(u, slices: slices.count, buildingID: id, of: run, &p)
                }
            }
        }
        if !unitsInPass {
            unitsOut.features(run.units.count, pool: pool) { u, emit in
                guard run.writes(building: run.units[u].buildingIndex) else { return }
                emit(run.units[u].id, .footprint(run.units[u].footprint)) { unitProperties(u, of: run, &$0) }
            }
        }
        FeaturesWriter.appendUnlinkedAddresses(run, to: featuresOut)
        try buildingsOut.close()
        try unitsOut.close()
        try featuresOut.close()
    }

    private static func unitProperties(_ u: Int, of run: LinkRun, _ p: inout FeatureProperties) {
        let unit = run.units[u]
        p.text("id", unit.id); p.text("building_id", run.buildings[unit.buildingIndex].id)
        p.text("address_id", run.addresses[unit.addressIndex].id); p.int("unit_index", unit.unitIndex)
    }
}
