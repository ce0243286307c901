/// A column of a source as its reader saw it: what `inspect` lists and what the unmapped-field
/// warning offers as candidates. `type` is the format's own word (GDAL's field type, FlatGeobuf's
/// and Parquet's column types, the JSON kind of a GeoJSON property's first non-null value).
public struct SourceField: Sendable, Hashable, Codable {
    public var name: String
    public var type: String

    public init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}
