/// The outputs' layers and their columns, as DESIGN.md names them: what a GeoPackage, FlatGeobuf
/// or GeoParquet output declares, whatever the values of one run would let a reader infer (a
/// GeoJSON reader types a column of nulls as text).
struct OutputColumn: Sendable {
    enum Kind: Sendable { case text, integer, real, boolean }
    let name: String
    let kind: Kind

    init(_ name: String, _ kind: Kind = .text) {
        self.name = name
        self.kind = kind
    }
}

struct OutputLayer: Sendable {
    enum Geometry: Sendable {
        case none
        case point
        /// Polygons and multipolygons, declared (and in GeoPackage and FlatGeobuf written) as MultiPolygon.
        case polygons
        /// Polygons and points: features.geojson's footprints and unlinked address points.
        case mixed
    }

    let name: String
    let geometry: Geometry
    let columns: [OutputColumn]
    /// The file in a directory output that holds the layer's values (GeoJSON or CSV).
    let staged: String

    static let addresses = OutputLayer(name: "addresses", geometry: .point, columns:
        AddressField.allCases.map { OutputColumn($0.rawValue) }
        + [OutputColumn("building_id"), OutputColumn("unit_id"), OutputColumn("match_method"),
           OutputColumn("confidence", .real), OutputColumn("distance_m", .real), OutputColumn("unlinked_reason")],
        staged: "addresses.geojson")

    static let buildings = OutputLayer(name: "buildings", geometry: .polygons, columns: [
        OutputColumn("id"), OutputColumn("gers_id"), OutputColumn("source"), OutputColumn("height_m", .real),
        OutputColumn("levels", .integer), OutputColumn("address_count", .integer),
        OutputColumn("is_townhome_row", .boolean), OutputColumn("units_count", .integer),
    ], staged: "buildings.geojson")

    static let units = OutputLayer(name: "units", geometry: .polygons, columns: [
        OutputColumn("id"), OutputColumn("building_id"), OutputColumn("address_id"), OutputColumn("unit_index", .integer),
    ], staged: "units.geojson")

    static let features = OutputLayer(name: "features", geometry: .mixed, columns: [
        OutputColumn("id"), OutputColumn("gers_id"), OutputColumn("building_id"), OutputColumn("address_id"),
        OutputColumn("address_count", .integer), OutputColumn("source"), OutputColumn("match_method"),
        OutputColumn("confidence", .real), OutputColumn("address_text"), OutputColumn("house_number"),
        OutputColumn("street_name"), OutputColumn("unit_index", .integer), OutputColumn("units_count", .integer),
        OutputColumn("status"), OutputColumn("scans_total", .integer), OutputColumn("qr_scanned", .boolean),
        OutputColumn("height", .real), OutputColumn("height_m", .real),
    ], staged: "features.geojson")

    static let links = OutputLayer(name: "links", geometry: .none, columns: [
        OutputColumn("id"), OutputColumn("campaign_id"), OutputColumn("building_id"), OutputColumn("address_id"),
        OutputColumn("unit_id"), OutputColumn("match_method"), OutputColumn("is_primary", .boolean),
        OutputColumn("confidence", .real), OutputColumn("distance_m", .real),
    ], staged: "links.csv")

    static let rejects = OutputLayer(name: "rejects", geometry: .none, columns: [
        OutputColumn("layer"), OutputColumn("source_row", .integer), OutputColumn("id"), OutputColumn("reason"),
    ], staged: "rejects.csv")

    /// The layers with a geometry, in the order they are written.
    static let geometryLayers = [addresses, buildings, units, features]
}
