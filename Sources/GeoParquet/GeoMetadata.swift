/// How a geometry column is encoded.
public enum GeometryEncoding: Sendable, Equatable {
    /// ISO WKB (what this reader decodes).
    case wkb
    /// A GeoArrow native encoding ("point", "linestring", "polygon", "multipoint", ...). Not supported for reading.
    case native(String)
    /// Any other value found in the metadata. Not supported for reading.
    case other(String)

    init(_ s: String) {
        switch s.lowercased() {
        case "wkb": self = .wkb
        case "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon": self = .native(s)
        default: self = .other(s)
        }
    }
}

/// Where a geometry column was declared.
public enum GeometryColumnSource: Sendable, Equatable {
    /// The GeoParquet `geo` key-value metadata.
    case geoMetadata
    /// Only the Parquet GEOMETRY/GEOGRAPHY logical type.
    case parquetLogicalType
}

/// Dotted paths of the four bbox covering columns (GeoParquet 1.1 `covering.bbox`).
public struct BBoxCovering: Sendable, Equatable {
    public var xmin: String
    public var ymin: String
    public var xmax: String
    public var ymax: String
}

/// A geometry column and its GeoParquet metadata.
public struct GeoColumnInfo: Sendable, Equatable {
    public var name: String
    public var encoding: GeometryEncoding
    /// PROJJSON of the CRS as a JSON string, when the CRS is given as PROJJSON.
    public var crsPROJJSON: String?
    /// A textual CRS identifier: "OGC:CRS84" when the CRS is absent (the GeoParquet default), or the
    /// non-PROJJSON CRS string of the Parquet GEOMETRY/GEOGRAPHY type ("srid:4326", "projjson:key" ...).
    public var crsIdentifier: String?
    /// True when the metadata gives an explicit `null` CRS (unknown CRS).
    public var crsIsUnknown: Bool
    public var geometryTypes: [String]
    /// Bbox from the metadata ([xmin, ymin, xmax, ymax]; the 3D form is reduced to 2D).
    public var bbox: BoundingBox?
    /// Covering columns used for spatial filtering, if any (from `covering.bbox`, or a struct column
    /// `bbox` / `<name>_bbox` with xmin/ymin/xmax/ymax fields).
    public var covering: BBoxCovering?
    /// "planar" or "spherical".
    public var edges: String
    public var source: GeometryColumnSource

    /// True if the reader can return this column's geometries (WKB encoding).
    public var isReadable: Bool { encoding == .wkb }
}

/// Parsed `geo` metadata.
struct GeoMetadata: Sendable {
    var version: String?
    var primaryColumn: String?
    var columns: [(name: String, info: GeoColumnInfo)] = []

    struct Invalid: Error { let message: String }

    static func parse(_ text: String) throws -> GeoMetadata {
        let root: JSONValue
        do { root = try JSONParser.parse(text) } catch let e as JSONParser.Failure {
            throw Invalid(message: "geo metadata is not valid JSON: \(e.message)")
        }
        guard root.isObject else { throw Invalid(message: "geo metadata is not a JSON object") }
        var meta = GeoMetadata()
        meta.version = root["version"]?.stringValue
        meta.primaryColumn = root["primary_column"]?.stringValue
        guard case let .object(cols)? = root["columns"] else {
            throw Invalid(message: "geo metadata has no \"columns\" object")
        }
        for member in cols {
            let c = member.value
            guard c.isObject else { throw Invalid(message: "geo metadata column \(member.key) is not an object") }
            let enc = c["encoding"]?.stringValue ?? "WKB"
            var info = GeoColumnInfo(name: member.key, encoding: GeometryEncoding(enc), crsPROJJSON: nil,
                                     crsIdentifier: nil, crsIsUnknown: false, geometryTypes: [], bbox: nil,
                                     covering: nil, edges: c["edges"]?.stringValue ?? "planar", source: .geoMetadata)
            switch c["crs"] {
            case nil: info.crsIdentifier = "OGC:CRS84"
            case .null?: info.crsIsUnknown = true
            case let .string(s)?: info.crsIdentifier = s
            case let v?: info.crsPROJJSON = v.serialized
            }
            info.geometryTypes = (c["geometry_types"]?.arrayValue ?? []).compactMap { $0.stringValue }
            if let b = c["bbox"]?.arrayValue?.compactMap({ $0.doubleValue }) {
                if b.count == 4 {
                    info.bbox = BoundingBox(xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3])
                } else if b.count == 6 {
                    info.bbox = BoundingBox(xmin: b[0], ymin: b[1], xmax: b[3], ymax: b[4])
                }
            }
            if let bb = c["covering"]?["bbox"] {
                func path(_ k: String) -> String? {
                    guard let parts = bb[k]?.arrayValue?.compactMap({ $0.stringValue }), !parts.isEmpty else { return nil }
                    return parts.joined(separator: ".")
                }
                if let x0 = path("xmin"), let y0 = path("ymin"), let x1 = path("xmax"), let y1 = path("ymax") {
                    info.covering = BBoxCovering(xmin: x0, ymin: y0, xmax: x1, ymax: y1)
                } else {
                    throw Invalid(message: "geo metadata covering.bbox of \(member.key) lacks xmin/ymin/xmax/ymax paths")
                }
            }
            meta.columns.append((member.key, info))
        }
        return meta
    }
}
