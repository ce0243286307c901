internal import CLateBound
import Foundation

/// A vector dataset written through one of GDAL's drivers (GeoPackage, FlatGeobuf): layers of
/// declared columns (`OutputLayer`), rows converted from the staged GeoJSON and CSV.
final class OGROutputDataset {
    let path: String
    private let handle: GDALDatasetH
    private let wgs84: OGRSpatialReferenceH
    private var closed = false
    /// Rows per transaction where the driver has them (GeoPackage): one per row costs a sync each.
    static let rowsPerTransaction = 100_000

    init(driver: String, path: String) throws {
        try GDALEnvironment.ready()
        self.path = path
        gdal.CPLErrorReset()
        guard let d = gdal.GDALGetDriverByName(driver) else { throw OutputError("GDAL has no \(driver) driver") }
        guard let h = gdal.GDALCreate(d, path, 0, 0, 0, GDT_Unknown, nil) else {
            throw OutputError("cannot create \(path): \(GDALEnvironment.lastError("\(driver) driver failed"))")
        }
        handle = h
        wgs84 = gdal.OSRNewSpatialReference(nil)!
        _ = gdal.OSRSetFromUserInput(wgs84, "EPSG:4326")
        gdal.OSRSetAxisMappingStrategy(wgs84, OAMS_TRADITIONAL_GIS_ORDER)
    }

    deinit {
        if !closed { gdal.GDALClose(handle) }
        gdal.OSRDestroySpatialReference(wgs84)
    }

    /// Writes `layer` from its staged file (GeoJSON or CSV) at `staged`.
    func write(_ layer: OutputLayer, from staged: String, options: [String] = [], transactions: Bool = false) throws {
        let target = try createLayer(layer.name, geometry: layer.geometry, columns: layer.columns, options: options)
        let promote = layer.geometry == .polygons
        try inTransactions(transactions) { row in
            try StagedLayerReader(layer: layer, path: staged).forEachRow { values, source in
                let geometry = layer.geometry == .none ? nil : source.flatMap { gdal.OGR_F_StealGeometry($0) }
                try add(values, geometry: promote ? geometry.flatMap { gdal.OGR_G_ForceToMultiPolygon($0) } : geometry, to: target)
                try row()
            }
        }
    }

    /// A table of the given rows (no geometry).
    func writeTable(_ name: String, columns: [OutputColumn], rows: [[OutputValue?]]) throws {
        let target = try createLayer(name, geometry: .none, columns: columns, options: [])
        for r in rows { try add(r, geometry: nil, to: target) }
    }

    /// Closes the dataset (GDAL finishes the file: FlatGeobuf writes its index here).
    func close() throws {
        closed = true
        gdal.CPLErrorReset()
        gdal.GDALClose(handle)
        if gdal.CPLGetLastErrorType() == CE_Failure { throw OutputError("cannot write \(path): \(GDALEnvironment.lastError("close failed"))") }
    }

    private func createLayer(_ name: String, geometry: OutputLayer.Geometry, columns: [OutputColumn], options: [String]) throws -> OGRLayerH {
        let type: OGRwkbGeometryType = switch geometry {
        case .none: wkbNone
        case .point: wkbPoint
        case .polygons: wkbMultiPolygon
        case .mixed: wkbUnknown
        }
        gdal.CPLErrorReset()
        // (GDAL 3.6 declares the options `char **`; it does not write to them.)
        let created = withCStringList(options) { list in
            gdal.GDALDatasetCreateLayer(handle, name, geometry == .none ? nil : wgs84, type, list.map { CSLConstList(OpaquePointer($0)) })
        }
        guard let l = created else { throw OutputError("cannot create layer \(name) in \(path): \(GDALEnvironment.lastError("failed"))") }
        for c in columns {
            let fieldType: OGRFieldType = switch c.kind {
            case .text: OFTString
            case .integer: OFTInteger64
            case .real: OFTReal
            case .boolean: OFTInteger
            }
            let f = gdal.OGR_Fld_Create(c.name, fieldType)
            if c.kind == .boolean { gdal.OGR_Fld_SetSubType(f, OFSTBoolean) }
            defer { gdal.OGR_Fld_Destroy(f) }
            guard gdal.OGR_L_CreateField(l, f, 1) == OGRERR_NONE else {
                throw OutputError("cannot create field \(c.name) in \(path): \(GDALEnvironment.lastError("failed"))")
            }
        }
        return l
    }

    /// Adds one feature; takes ownership of `geometry`.
    private func add(_ values: [OutputValue?], geometry: OGRGeometryH?, to layer: OGRLayerH) throws {
        let f = gdal.OGR_F_Create(gdal.OGR_L_GetLayerDefn(layer))!
        defer { gdal.OGR_F_Destroy(f) }
        for (i, v) in values.enumerated() {
            let k = Int32(i)
            switch v {
            case nil: gdal.OGR_F_SetFieldNull(f, k)
            case .text(let s)?: gdal.OGR_F_SetFieldString(f, k, s)
            case .integer(let n)?: gdal.OGR_F_SetFieldInteger64(f, k, GIntBig(n))
            case .real(let d)?: gdal.OGR_F_SetFieldDouble(f, k, d)
            case .boolean(let b)?: gdal.OGR_F_SetFieldInteger64(f, k, b ? 1 : 0)
            }
        }
        if let geometry { _ = gdal.OGR_F_SetGeometryDirectly(f, geometry) }
        gdal.CPLErrorReset()
        guard gdal.OGR_L_CreateFeature(layer, f) == OGRERR_NONE else {
            throw OutputError("cannot write a feature to \(path): \(GDALEnvironment.lastError("failed"))")
        }
    }

    /// Runs `body`, which calls `row()` after each row, committing every `rowsPerTransaction` rows.
    private func inTransactions(_ enabled: Bool, _ body: (() throws -> Void) throws -> Void) throws {
        guard enabled else { return try body {} }
        var n = 0
        func begin() throws {
            guard gdal.GDALDatasetStartTransaction(handle, 0) == OGRERR_NONE else {
                throw OutputError("cannot write \(path): \(GDALEnvironment.lastError("no transaction"))")
            }
        }
        func commit() throws {
            guard gdal.GDALDatasetCommitTransaction(handle) == OGRERR_NONE else {
                throw OutputError("cannot write \(path): \(GDALEnvironment.lastError("commit failed"))")
            }
        }
        try begin()
        try body {
            n += 1
            if n % Self.rowsPerTransaction == 0 { try commit(); try begin() }
        }
        try commit()
    }
}
