internal import CLateBound

/// An error PROJ reported, with PROJ's own message.
public struct ProjectionError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// PROJ, bound when first used (CLateBound): a run whose sources are in lon/lat never loads it.
enum ProjLibrary {
    fileprivate static let library = LateBoundTable(flyr_proj)

    /// Loads PROJ if it is not yet; what must come before any use of `proj`.
    static func ready() throws(ProjectionError) {
        if let failure = library.failure { throw ProjectionError(message: "PROJ is not available: \(failure)") }
    }

    static var isAvailable: Bool { library.failure == nil }
}

/// PROJ's functions, by their C names; only after `ProjLibrary.ready()`.
var proj: FlyrPROJ { ProjLibrary.library.functions }

/// A PROJ transformation between two CRSs, in lon/lat-east/north axis order
/// (`proj_normalize_for_visualization`), owning its own PROJ context. Thread-confined:
/// each worker builds its own from the same definitions.
final class CoordinateTransformer {
    private let context: OpaquePointer
    private let pj: OpaquePointer
    let source: String
    let target: String

    /// `source` and `target` are anything `proj_create` accepts: "EPSG:4326", WKT, PROJJSON, a PROJ string.
    init(from source: String, to target: String) throws(ProjectionError) {
        self.source = source
        self.target = target
        try ProjLibrary.ready()
        guard let ctx = proj.proj_context_create() else { throw ProjectionError(message: "PROJ context could not be created") }
        _ = proj.proj_log_level(ctx, PJ_LOG_NONE)
        guard let raw = proj.proj_create_crs_to_crs(ctx, source, target, nil) else {
            let msg = CoordinateTransformer.message(ctx)
            _ = proj.proj_context_destroy(ctx)
            throw ProjectionError(message: "no transformation from \(CoordinateTransformer.shortName(source)) to \(CoordinateTransformer.shortName(target)): \(msg)")
        }
        guard let norm = proj.proj_normalize_for_visualization(ctx, raw) else {
            let msg = CoordinateTransformer.message(ctx)
            _ = proj.proj_destroy(raw)
            _ = proj.proj_context_destroy(ctx)
            throw ProjectionError(message: "PROJ could not normalise axis order: \(msg)")
        }
        _ = proj.proj_destroy(raw)
        context = ctx
        pj = norm
    }

    deinit {
        _ = proj.proj_destroy(pj)
        _ = proj.proj_context_destroy(context)
    }

    /// Transforms in place, forward. Points PROJ cannot transform become non-finite.
    func forward(_ points: inout [Point2]) {
        transform(&points, direction: PJ_FWD)
    }

    func inverse(_ points: inout [Point2]) {
        transform(&points, direction: PJ_INV)
    }

    func forward(_ p: Point2) -> Point2 {
        var pts = [p]
        transform(&pts, direction: PJ_FWD)
        return pts[0]
    }

    private func transform(_ points: inout [Point2], direction: PJ_DIRECTION) {
        guard !points.isEmpty else { return }
        let n = points.count
        let stride = MemoryLayout<Point2>.stride
        points.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            _ = proj.proj_trans_generic(pj, direction, base, stride, n, base + 1, stride, n, nil, 0, 0, nil, 0, 0)
        }
        // PROJ marks failures with HUGE_VAL; make them plainly non-finite.
        for i in 0..<n where !(abs(points[i].x) < 1e300 && abs(points[i].y) < 1e300) {
            points[i] = Point2(x: .infinity, y: .infinity)
        }
    }

    private static func message(_ ctx: OpaquePointer) -> String {
        let errno = proj.proj_context_errno(ctx)
        guard errno != 0, let s = proj.proj_context_errno_string(ctx, errno) else { return "unknown CRS definition" }
        return String(cString: s)
    }

    private static func shortName(_ def: String) -> String {
        def.count <= 40 ? def : String(def.prefix(37)) + "..."
    }
}

/// Facts about a CRS definition that PROJ can tell. The two names of WGS 84 lon/lat that the
/// project's own readers give (EPSG:4326, OGC:CRS84) are answered without PROJ.
enum CRSInfo {
    /// "EPSG:4326" or "OGC:CRS84" as written (any case), in their usual spelling; nil otherwise.
    private static func wgs84Name(_ definition: String) -> String? {
        switch definition.uppercased() {
        case "EPSG:4326": "EPSG:4326"
        case "OGC:CRS84": "OGC:CRS84"
        default: nil
        }
    }

    /// True when the definition is WGS 84 longitude/latitude (EPSG:4326 or OGC:CRS84, any axis
    /// order): data in it needs no transformation to reach the output CRS.
    static func isWGS84(_ definition: String) -> Bool {
        if wgs84Name(definition) != nil { return true }
        return withCRS(definition) { ctx, crs in
            guard let wgs84 = proj.proj_create(ctx, "EPSG:4326") else { return false }
            defer { _ = proj.proj_destroy(wgs84) }
            return proj.proj_is_equivalent_to_with_ctx(ctx, crs, wgs84, PJ_COMP_EQUIVALENT_EXCEPT_AXIS_ORDER_GEOGCRS) == 1
        } ?? false
    }

    /// True when PROJ can build a CRS from the definition.
    static func isKnown(_ definition: String) -> Bool {
        wgs84Name(definition) != nil || withCRS(definition) { _, _ in true } ?? false
    }

    /// "EPSG:25832" style name when the definition carries an authority code.
    static func authorityName(_ definition: String) -> String? {
        if let name = wgs84Name(definition) { return name }
        return withCRS(definition) { _, crs in
            guard let auth = proj.proj_get_id_auth_name(crs, 0), let code = proj.proj_get_id_code(crs, 0) else { return nil }
            return "\(String(cString: auth)):\(String(cString: code))"
        }
    }

    /// `body(context, crs)` with the CRS PROJ builds from the definition (both freed after); nil
    /// when PROJ cannot be loaded or cannot build it.
    private static func withCRS<R>(_ definition: String, _ body: (OpaquePointer, OpaquePointer) -> R?) -> R? {
        guard ProjLibrary.isAvailable, let ctx = proj.proj_context_create() else { return nil }
        defer { _ = proj.proj_context_destroy(ctx) }
        _ = proj.proj_log_level(ctx, PJ_LOG_NONE)
        guard let crs = proj.proj_create(ctx, definition) else { return nil }
        defer { _ = proj.proj_destroy(crs) }
        return body(ctx, crs)
    }
}
