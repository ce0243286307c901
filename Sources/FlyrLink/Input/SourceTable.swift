/// A layer as read: attribute values already mapped to canonical fields, geometry decoded but still
/// in the source's CRS. Nothing is judged yet; that is the ingest stage's job.
struct SourceTable: Sendable {
    struct Record: Sendable {
        /// 1-based ordinal of the feature in the (filtered) layer.
        var ordinal: Int
        /// One value per canonical field of the role, in the role's field order.
        var values: [String?]
        var geometry: SourceGeometry?
        /// Set when the geometry could not be decoded.
        var geometryError: String?
        /// Set when the row is not a feature at all (a GeoJSON member whose `type` is not
        /// "Feature"): the reason it is rejected.
        var notAFeature: String?

        init(ordinal: Int, values: [String?], wkb: [UInt8]?) {
            self.ordinal = ordinal
            self.values = values
            guard let wkb else { return }
            do { geometry = try WKBReader.read(wkb) } catch { geometryError = "\(error)" }
        }
    }

    var spec: SourceSpec
    var role: LayerRole
    /// "GDAL/GeoJSON", "GDAL/OSM", "flyr-link GeoParquet reader", ...
    var reader: String
    var layerName: String
    /// The CRS definition found in the source (WKT2 or PROJJSON), nil when it has none.
    var crsDefinition: String?
    /// Canonical field → the source field (or `other_tags` key) it was read from, for the report.
    var resolvedFields: [String: String]
    var attributeFilter: String?
    /// The records, when read without a consumer (RecordSink); empty when ingest took them as they came.
    var records: [Record]
    /// How many records the reader produced.
    var recordCount: Int
    /// For GeoParquet read by the project's reader: what spatial pruning skipped.
    var parquet: ParquetReadReport?
    /// The CRS is the format's default, not stated by the source (GeoJSON without a `crs`
    /// member): judged on the coordinates like a source without one (`Ingest.sourceCRS`).
    var crsIsFormatDefault = false
    /// The source's columns (GDAL's `other_tags` as one), in the source's order.
    var fields: [SourceField] = []
    /// Whether a read within a box reads only the part of the source that meets it (GeoParquet's
    /// row groups, a FlatGeobuf file's spatial index), not the whole source: a distributed run's
    /// tiles read such a source in parts.
    var readsInParts = false
}

/// What the GeoParquet reader read of a file, for report.json.
public struct ParquetReadReport: Sendable, Codable, Equatable {
    public var rowGroupsTotal: Int
    public var rowGroupsRead: Int
    public var bytesRead: Int
    public var rowsInFile: Int
    public var rowsSkippedByBBox: Int
    /// A remote source's HTTP traffic: response body bytes (the footer included) and requests
    /// (retries included); absent for a local file.
    public var bytesFetched: Int? = nil
    public var requests: Int? = nil
}
