internal import CLateBound
import Foundation

/// An error GDAL/OGR reported, with GDAL's own message.
public struct GDALError: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// Any password in `message` (a `PG:` path, GDAL's own text) is masked.
    public init(message: String) { self.message = ConnectionSecrets.masked(message) }
    public var description: String { message }
}

enum GDALEnvironment {
    /// GDAL, loaded on first use (see CLateBound: a run that never opens a source through GDAL
    /// never loads it), its drivers registered and its printing to stderr off: its messages are
    /// read back with CPLGetLastErrorMsg and reported as one line of ours.
    fileprivate static let library: LateBoundTable<FlyrGDAL> = {
        let library = LateBoundTable(flyr_gdal)
        if library.failure == nil {
            library.functions.GDALAllRegister()
            _ = library.functions.CPLSetErrorHandler(library.functions.CPLQuietErrorHandler)
        }
        return library
    }()

    /// Loads GDAL if it is not yet; what must come before any use of `gdal`.
    static func ready() throws(GDALError) {
        if let failure = library.failure { throw GDALError(message: "GDAL is not available: \(failure)") }
    }

    static func lastError(_ fallback: String) -> String {
        guard let msg = gdal.CPLGetLastErrorMsg() else { return fallback }
        let s = String(cString: msg).trimmingCharacters(in: .whitespacesAndNewlines)
        return s.isEmpty ? fallback : s.replacingOccurrences(of: "\n", with: " ")
    }

    /// False too when GDAL cannot be loaded.
    static func hasDriver(_ name: String) -> Bool {
        guard library.failure == nil else { return false }
        return gdal.GDALGetDriverByName(name) != nil
    }
}

/// GDAL's functions, by their C names; only after `GDALEnvironment.ready()` (every GDAL object
/// is made after it).
var gdal: FlyrGDAL { GDALEnvironment.library.functions }

/// An open OGR vector dataset. Layers keep it alive (a layer handle is only valid while its dataset is open).
final class GDALVectorDataset {
    let handle: GDALDatasetH
    let path: String
    let driverName: String

    init(path: String, openOptions: [String] = []) throws(GDALError) {
        try GDALEnvironment.ready()
        self.path = path
        if let why = LocalSource.problem(path) { throw GDALError(message: "cannot open \(path): \(why)") }
        gdal.CPLErrorReset()
        let h = withCStringList(openOptions) { list in
            gdal.GDALOpenEx(path, UInt32(GDAL_OF_VECTOR | GDAL_OF_READONLY), nil, openOptions.isEmpty ? nil : list, nil)
        }
        guard let h else {
            let exists = path.hasPrefix("PG:") || path.hasPrefix("/vsi") || FileManager.default.fileExists(atPath: path)
            let reason = !exists ? "no such file"
                : LocalSource.openFailure(path) ?? GDALEnvironment.lastError("not a vector format GDAL can open")
            throw GDALError(message: "cannot open \(path): \(reason)")
        }
        handle = h
        if let drv = gdal.GDALGetDatasetDriver(h), let name = gdal.GDALGetDriverShortName(drv) {
            driverName = String(cString: name)
        } else {
            driverName = "unknown"
        }
    }

    deinit {
        gdal.GDALClose(handle)
    }

    /// A layer name that is an SQL query: `SELECT …` or `WITH …`.
    static func isSQL(_ name: String) -> Bool {
        let head = name.drop(while: { $0.isWhitespace }).prefix(7).lowercased()
        return head.hasPrefix("select ") || head.hasPrefix("select\n") || head.hasPrefix("with ")
    }

    var layerNames: [String] {
        (0..<gdal.GDALDatasetGetLayerCount(handle)).compactMap { i in
            guard let l = gdal.GDALDatasetGetLayer(handle, i), let n = gdal.OGR_L_GetName(l) else { return nil }
            return String(cString: n)
        }
    }

    func layer(named name: String?) throws(GDALError) -> GDALVectorLayer {
        if let name, GDALVectorDataset.isSQL(name) {
            // An SQL query as the layer (run by the driver, e.g. PostgreSQL, or by OGR SQL).
            gdal.CPLErrorReset()
            guard let l = gdal.GDALDatasetExecuteSQL(handle, name, nil, nil) else {
                throw GDALError(message: "\(path): query failed: \(GDALEnvironment.lastError("no result layer"))")
            }
            return GDALVectorLayer(dataset: self, handle: l, isResultSet: true)
        }
        if let name {
            guard let l = gdal.GDALDatasetGetLayerByName(handle, name) else {
                throw GDALError(message: "\(path) has no layer '\(name)' (layers: \(layerNames.joined(separator: ", ")))")
            }
            return GDALVectorLayer(dataset: self, handle: l)
        }
        guard gdal.GDALDatasetGetLayerCount(handle) > 0, let l = gdal.GDALDatasetGetLayer(handle, 0) else {
            throw GDALError(message: "\(path) has no vector layer")
        }
        return GDALVectorLayer(dataset: self, handle: l)
    }
}

/// One layer of an open dataset; holds the dataset so the handle stays valid.
/// A feature cursor: not Sendable, read on one thread.
final class GDALVectorLayer {
    let dataset: GDALVectorDataset
    let handle: OGRLayerH
    /// The result of an SQL query, released with the dataset's ReleaseResultSet.
    let isResultSet: Bool

    init(dataset: GDALVectorDataset, handle: OGRLayerH, isResultSet: Bool = false) {
        self.dataset = dataset
        self.handle = handle
        self.isResultSet = isResultSet
    }

    deinit {
        if isResultSet { gdal.GDALDatasetReleaseResultSet(dataset.handle, handle) }
    }

    var name: String { gdal.OGR_L_GetName(handle).map { String(cString: $0) } ?? "" }

    var fieldNames: [String] {
        guard let defn = gdal.OGR_L_GetLayerDefn(handle) else { return [] }
        return (0..<gdal.OGR_FD_GetFieldCount(defn)).map { i in
            gdal.OGR_Fld_GetNameRef(gdal.OGR_FD_GetFieldDefn(defn, i)).map { String(cString: $0) } ?? ""
        }
    }

    /// Every field with GDAL's name for its type ("String", "Integer64", "Real", …).
    var fields: [SourceField] {
        guard let defn = gdal.OGR_L_GetLayerDefn(handle) else { return [] }
        return (0..<gdal.OGR_FD_GetFieldCount(defn)).map { i in
            let f = gdal.OGR_FD_GetFieldDefn(defn, i)
            return SourceField(name: gdal.OGR_Fld_GetNameRef(f).map { String(cString: $0) } ?? "",
                               type: gdal.OGR_GetFieldTypeName(gdal.OGR_Fld_GetType(f)).map { String(cString: $0) } ?? "unknown")
        }
    }

    var hasGeometryField: Bool {
        guard let defn = gdal.OGR_L_GetLayerDefn(handle) else { return false }
        return gdal.OGR_FD_GetGeomFieldCount(defn) > 0
    }

    /// The layer's CRS as WKT2, or nil when it has none.
    var crsWKT: String? {
        guard let srs = gdal.OGR_L_GetSpatialRef(handle) else { return nil }
        var out: UnsafeMutablePointer<CChar>?
        let err = withCStringList(["FORMAT=WKT2_2019"]) { gdal.OSRExportToWktEx(srs, &out, $0) }
        // GDAL allocates the result (an empty string) even when the export fails.
        defer { if let out { gdal.VSIFree(out) } }
        guard err == OGRERR_NONE, let out else { return nil }
        return String(cString: out)
    }

    func setAttributeFilter(_ sql: String?) throws(GDALError) {
        gdal.CPLErrorReset()
        if gdal.OGR_L_SetAttributeFilter(handle, sql) != OGRERR_NONE {
            throw GDALError(message: "attribute filter '\(sql ?? "")' rejected: \(GDALEnvironment.lastError("invalid filter"))")
        }
    }

    /// Feature count if the driver knows it cheaply, else nil.
    var cheapFeatureCount: Int? {
        let n = gdal.OGR_L_GetFeatureCount(handle, 0)
        return n >= 0 ? Int(n) : nil
    }

    /// Visits features in order with their 1-based ordinal. `body` reads what it needs from the feature.
    func forEachFeature(_ body: (GDALFeature) throws -> Void) throws {
        gdal.OGR_L_ResetReading(handle)
        var ordinal = 0
        gdal.CPLErrorReset()
        while let f = gdal.OGR_L_GetNextFeature(handle) {
            ordinal += 1
            defer { gdal.OGR_F_Destroy(f) }
            try body(GDALFeature(handle: f, ordinal: ordinal))
        }
        if gdal.CPLGetLastErrorType() == CE_Failure {
            throw GDALError(message: "reading \(dataset.path) layer \(name) failed after \(ordinal) features: \(GDALEnvironment.lastError("read error"))")
        }
    }
}

/// A borrowed view of the current feature; valid only inside `forEachFeature`'s body.
struct GDALFeature {
    let handle: OGRFeatureH
    let ordinal: Int

    var fid: Int64 { Int64(gdal.OGR_F_GetFID(handle)) }

    func string(_ field: Int32) -> String? {
        guard gdal.OGR_F_IsFieldSetAndNotNull(handle, field) != 0, let c = gdal.OGR_F_GetFieldAsString(handle, field) else { return nil }
        return String(cString: c)
    }

    /// The first geometry as ISO WKB (little-endian), nil when the feature has none.
    func wkb() -> [UInt8]? {
        guard let g = gdal.OGR_F_GetGeometryRef(handle) else { return nil }
        let size = Int(gdal.OGR_G_WkbSize(g))
        guard size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        let err = bytes.withUnsafeMutableBufferPointer { gdal.OGR_G_ExportToIsoWkb(g, wkbNDR, $0.baseAddress) }
        return err == OGRERR_NONE ? bytes : nil
    }
}

/// Calls `body` with a NULL-terminated C string list (GDAL's `CSLConstList`).
func withCStringList<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R) -> R {
    let owned = strings.map { strdup($0) }
    defer { for o in owned { free(o) } }
    var list: [UnsafePointer<CChar>?] = owned.map { UnsafePointer($0) }
    list.append(nil)
    return list.withUnsafeBufferPointer { body($0.baseAddress) }
}
