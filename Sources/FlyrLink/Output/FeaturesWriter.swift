/// features.geojson: what `rpc_get_campaign_full_features` returns. One feature per building
/// (or per unit slice of a split townhouse row), then one Point per unlinked address, with the
/// properties of DESIGN.md's table. The footprints' features are written by `FootprintOutputs`,
/// in the pass that writes buildings.geojson and units.geojson; the address points here.
enum FeaturesWriter {
    static let defaultHeight = 10.0

    /// The members every feature ends with.
    private static func common(_ p: inout FeatureProperties, height: Double) {
        p.text("status", "not_visited"); p.int("scans_total", 0); p.bool("qr_scanned", false)
        p.number("height", height, decimals: 2); p.number("height_m", height, decimals: 2)
    }

    /// A building that is not split: its primary link's method and confidence; the address's
    /// own fields when it has exactly one.
    /// (`id`: the building's, made once by the caller.)
    static func building(_ b: Int, id: String, of run: LinkRun, _ p: inout FeatureProperties) {
        let building = run.buildings[b]
        let linkIDs = run.linksOfBuilding(b)
        let count = linkIDs.count
        let primary = linkIDs.first.map { run.links[$0] }
        let single = count == 1 ? primary.map { run.addresses[$0.addressIndex] } : nil
        p.text("id", id); p.text("gers_id", id); p.text("building_id", id)
        p.text("address_id", single?.id); p.int("address_count", count); p.text("source", "gold")
        p.text("match_method", primary?.method.rawValue); p.number("confidence", primary?.confidence, decimals: 3)
        if let single {
            p.addressText("address_text", single); p.field("house_number", single, .houseNumber); p.field("street_name", single, .streetName)
        } else {
            p.null("address_text"); p.null("house_number"); p.null("street_name")
        }
        common(&p, height: building.height ?? defaultHeight)
    }

    /// One slice of a split row, `slices` in its building.
    static func slice(_ u: Int, slices: Int, buildingID: String, of run: LinkRun, _ p: inout FeatureProperties) {
        let unit = run.units[u]
        let building = run.buildings[unit.buildingIndex]
        let link = run.linkOfAddress[unit.addressIndex].map { run.links[$0] }
        let a = run.addresses[unit.addressIndex]
        p.text("id", unit.id); p.text("gers_id", buildingID); p.text("building_id", buildingID)
        p.text("address_id", a.id); p.int("address_count", run.linksOfBuilding(unit.buildingIndex).count); p.text("source", "gold")
        p.text("match_method", link?.method.rawValue); p.number("confidence", link?.confidence, decimals: 3)
        p.addressText("address_text", a); p.field("house_number", a, .houseNumber); p.field("street_name", a, .streetName)
        p.int("unit_index", unit.unitIndex); p.int("units_count", slices)
        common(&p, height: building.height ?? defaultHeight)
    }

    /// The unlinked addresses' points, after the footprints' features.
    static func appendUnlinkedAddresses(_ run: LinkRun, to out: GeoJSONWriter) {
        out.features(run.addresses.count, pool: WorkerPool(threads: run.options.threads)) { i, emit in
            guard run.linkOfAddress[i] == nil, run.writes(address: i) else { return }
            let a = run.addresses[i]
            let id = a.id
            emit(id, run.location(ofAddress: i).map(OutputGeometry.point)) { p in
                p.text("id", id); p.text("gers_id", id); p.text("address_id", id); p.int("address_count", 1)
                p.text("source", "address_point"); p.null("match_method"); p.null("confidence")
                p.addressText("address_text", a); p.field("house_number", a, .houseNumber); p.field("street_name", a, .streetName)
                common(&p, height: defaultHeight)
            }
        }
    }
}
