/// How a run's outputs are laid out (`--format`): the directory of GeoJSON and CSV, one
/// GeoPackage file, or a directory with a FlatGeobuf or GeoParquet file per geometry layer.
public enum OutputFormat: String, Sendable, Codable, CaseIterable {
    case dir
    case gpkg
    case fgb
    case parquet

    /// The format an `--out` path asks for when none is given: `.gpkg` → gpkg, anything else a directory.
    public static func inferred(from out: String) -> OutputFormat {
        out.lowercased().hasSuffix(".gpkg") ? .gpkg : .dir
    }

    /// Why this format cannot be written to `out`, or nil: a PostgreSQL database takes the tables, not files.
    public func problem(out: String) -> String? {
        self != .dir && PostgresTarget.conninfo(from: out) != nil
            ? "--format \(rawValue) writes files; --out names a PostgreSQL database (drop --format, or give a path)" : nil
    }

    /// The geometry layers' file extension in a directory output.
    var layerExtension: String {
        switch self {
        case .dir, .gpkg: "geojson"
        case .fgb: "fgb"
        case .parquet: "parquet"
        }
    }
}
