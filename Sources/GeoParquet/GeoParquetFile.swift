/// A GeoParquet (or plain Parquet) file. `init` reads and parses the footer only; `read` streams
/// the requested columns one row group at a time.
public struct GeoParquetFile: Sendable {
    /// Path (or name, for in-memory data) used in error messages.
    public let path: String
    let source: FileSource
    let metadata: FileMetaData
    let schema: ParquetSchema
    let fileSize: Int

    public let columns: [ParquetColumnDescription]
    public let geometryColumns: [GeoColumnInfo]
    public let primaryGeometryColumn: String?
    /// The `version` of the `geo` metadata, if present.
    public let geoMetadataVersion: String?
    /// All key-value metadata of the footer.
    public let keyValueMetadata: [String: String]
    public let createdBy: String?

    public var numRows: Int { Int(metadata.numRows) }
    public var rowGroupCount: Int { metadata.rowGroups.count }
    /// Row count of each row group.
    public var rowGroupRowCounts: [Int] { metadata.rowGroups.map { Int($0.numRows) } }

    /// Opens the file at `path` and parses its metadata.
    public init(path: String) throws(GeoParquetError) {
        try self.init(source: .path(path), name: path)
    }

    /// Parses Parquet bytes held in memory; `name` is used in error messages.
    public init(bytes: [UInt8], name: String = "<memory>") throws(GeoParquetError) {
        try self.init(source: .memory(bytes), name: name)
    }

    /// Reads the file through `source` (e.g. HTTP range requests); `name` is used in error messages.
    public init(source: any ByteSource, name: String) throws(GeoParquetError) {
        try self.init(source: .external(source), name: name)
    }

    init(source: FileSource, name: String) throws(GeoParquetError) {
        path = name
        self.source = source
        do {
            let reader = try RangeReader(source)
            fileSize = reader.size
            guard reader.size >= 12 else {
                throw DecodeError(kind: .notParquet, message: "file of \(reader.size) bytes is too small to be Parquet")
            }
            let head = try reader.read(offset: 0, count: 4)
            let tail = try reader.read(offset: reader.size - 8, count: 8)
            if tail[4...] == [0x50, 0x41, 0x52, 0x45] {   // PARE
                throw DecodeError.unsupported("encrypted Parquet footers are not supported")
            }
            guard head == [0x50, 0x41, 0x52, 0x31], tail[4...] == [0x50, 0x41, 0x52, 0x31] else {
                throw DecodeError(kind: .notParquet, message: "missing PAR1 magic; not a Parquet file")
            }
            let footerLength = Int(UInt32(tail[0]) | UInt32(tail[1]) << 8 | UInt32(tail[2]) << 16 | UInt32(tail[3]) << 24)
            guard footerLength <= reader.size - 12 else {
                throw DecodeError.truncated("footer length \(footerLength) exceeds the file size \(reader.size)")
            }
            let footer = try reader.read(offset: reader.size - 8 - footerLength, count: footerLength)
            let meta = try FileMetaData.parse(footer)
            metadata = meta
            schema = try ParquetSchema.build(meta.schema)
            try Self.validate(meta, schema)
        } catch {
            throw GeoParquetError.from(error, file: name, column: nil)
        }
        columns = schema.leaves.map(\.description)
        var kv: [String: String] = [:]
        for item in metadata.keyValueMetadata { kv[item.key] = item.value ?? "" }
        keyValueMetadata = kv
        createdBy = metadata.createdBy

        // Geometry columns: GeoParquet metadata first, then Parquet GEOMETRY/GEOGRAPHY logical types.
        var geo: GeoMetadata?
        if let text = kv["geo"] {
            do { geo = try GeoMetadata.parse(text) } catch let e as GeoMetadata.Invalid {
                throw GeoParquetError(kind: .invalidGeoMetadata, file: name, message: e.message)
            } catch {
                throw GeoParquetError(kind: .invalidGeoMetadata, file: name, message: "\(error)")
            }
        }
        geoMetadataVersion = geo?.version
        var infos: [GeoColumnInfo] = geo?.columns.map(\.info) ?? []
        for leaf in schema.leaves where leaf.path.count == 1 {
            let crs: String?, edges: String
            switch leaf.logicalType {
            case let .geometry(c)?: crs = c; edges = "planar"
            case let .geography(c, _)?: crs = c; edges = "spherical"
            default: continue
            }
            if let i = infos.firstIndex(where: { $0.name == leaf.dottedPath }) {
                // geo metadata wins; fill in a CRS only if it had none at all.
                if infos[i].crsPROJJSON == nil && !infos[i].crsIsUnknown && infos[i].crsIdentifier == "OGC:CRS84",
                   let crs, !crs.isEmpty {
                    Self.applyParquetCRS(crs, to: &infos[i])
                }
                continue
            }
            var info = GeoColumnInfo(name: leaf.dottedPath, encoding: .wkb, crsPROJJSON: nil, crsIdentifier: "OGC:CRS84",
                                     crsIsUnknown: false, geometryTypes: [], bbox: nil, covering: nil, edges: edges,
                                     source: .parquetLogicalType)
            if let crs, !crs.isEmpty { Self.applyParquetCRS(crs, to: &info) }
            infos.append(info)
        }
        // Covering fallback: struct `bbox` (primary column, Overture style) or `<name>_bbox`.
        let leafPaths = Set(schema.leaves.filter { $0.physicalType == .float || $0.physicalType == .double }.map(\.dottedPath))
        let primary = geo?.primaryColumn ?? infos.first?.name
        for i in infos.indices {
            if let c = infos[i].covering {
                if ![c.xmin, c.ymin, c.xmax, c.ymax].allSatisfy(leafPaths.contains) { infos[i].covering = nil }
                else { continue }
            }
            var candidates = [infos[i].name + "_bbox"]
            if infos[i].name == primary { candidates.append("bbox") }
            for g in candidates where ["xmin", "ymin", "xmax", "ymax"].allSatisfy({ leafPaths.contains(g + "." + $0) }) {
                infos[i].covering = BBoxCovering(xmin: g + ".xmin", ymin: g + ".ymin", xmax: g + ".xmax", ymax: g + ".ymax")
                break
            }
        }
        geometryColumns = infos
        primaryGeometryColumn = primary
    }

    private static func applyParquetCRS(_ crs: String, to info: inout GeoColumnInfo) {
        if crs.first == "{" { info.crsPROJJSON = crs; info.crsIdentifier = nil } else { info.crsIdentifier = crs }
    }

    private static func validate(_ meta: FileMetaData, _ schema: ParquetSchema) throws {
        guard meta.numRows >= 0 else { throw DecodeError.metadata("negative row count") }
        var total: Int64 = 0
        for (i, rg) in meta.rowGroups.enumerated() {
            guard rg.columns.count == schema.leaves.count else {
                throw DecodeError.metadata("row group \(i) has \(rg.columns.count) column chunks for \(schema.leaves.count) columns")
            }
            let (s, o) = total.addingReportingOverflow(rg.numRows)
            guard !o else { throw DecodeError.metadata("row counts overflow") }
            total = s
        }
        guard total == meta.numRows else {
            throw DecodeError.metadata("row groups hold \(total) rows but the footer says \(meta.numRows)")
        }
    }

    /// The compressed bytes of each row group: the sum of its column chunks' sizes, what reading
    /// all its columns costs.
    public var rowGroupCompressedBytes: [Int] {
        metadata.rowGroups.map { rg in rg.columns.reduce(0) { $0 + Int($1.metaData?.totalCompressedSize ?? 0) } }
    }

    /// Info for a geometry column by name.
    public func geometryColumn(named name: String) -> GeoColumnInfo? {
        geometryColumns.first { $0.name == name }
    }

    func leaf(_ dotted: String) -> LeafColumn? {
        schema.leaves.first { $0.dottedPath == dotted }
    }
}
