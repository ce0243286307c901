import ArgumentParser
import FlyrLink

/// Where the inputs come from; shared by the subcommands that read sources.
struct SourceOptions: ParsableArguments {
    @Option(help: "Building footprints: any OGR source (path, path:layer, PG:…) or GeoParquet.")
    var buildings: String?

    @Option(help: "Layer of the buildings source (default: its only/first layer; OSM: multipolygons).")
    var buildingsLayer: String?

    @Option(help: "CRS of the buildings source when it has none or a wrong one, e.g. EPSG:25832.")
    var buildingsCrs: String?

    @Option(help: "Address points: any OGR source or GeoParquet.")
    var addresses: String?

    @Option(help: "Layer of the addresses source (OSM: points).")
    var addressesLayer: String?

    @Option(help: "CRS of the addresses source when it has none or a wrong one.")
    var addressesCrs: String?

    @Option(help: "Polygon(s): buildings that intersect it and addresses inside it are used.")
    var territory: String?

    @Option(help: "Layer of the territory source.")
    var territoryLayer: String?

    @Option(name: .customLong("address-field"), help: ArgumentHelp("Map a canonical address field to a source field, e.g. house_number=husnr (repeatable).", valueName: "field=source"))
    var addressFields: [String] = []

    @Option(name: .customLong("building-field"), help: ArgumentHelp("Map a canonical building field to a source field, e.g. id=ID_LOKALID (repeatable).", valueName: "field=source"))
    var buildingFields: [String] = []

    @OptionGroup var remote: RemoteReadOptions

    func validate() throws {
        for pair in addressFields + buildingFields where Self.split(pair) == nil {
            throw ValidationError("field mapping '\(pair)' is not field=source")
        }
    }

    static func split(_ pair: String) -> (String, String)? {
        guard let eq = pair.firstIndex(of: "=") else { return nil }
        let k = String(pair[..<eq]), v = String(pair[pair.index(after: eq)...])
        return k.isEmpty || v.isEmpty ? nil : (k, v)
    }

    func apply(to s: inout RunRequest) {
        s.buildings = buildings
        s.buildingsLayer = buildingsLayer
        s.buildingsCRS = buildingsCrs
        s.addresses = addresses
        s.addressesLayer = addressesLayer
        s.addressesCRS = addressesCrs
        s.territory = territory
        s.territoryLayer = territoryLayer
        for pair in addressFields { if let (k, v) = Self.split(pair) { s.addressFields[k] = v } }
        for pair in buildingFields { if let (k, v) = Self.split(pair) { s.buildingFields[k] = v } }
        remote.apply(to: &s)
    }
}
