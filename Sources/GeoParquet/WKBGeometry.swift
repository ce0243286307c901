/// A coordinate from WKB.
public struct WKBCoordinate: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double?
    public var m: Double?
}

/// The shape of a decoded WKB geometry. Empty geometries have empty arrays (an empty point is
/// `.point(nil)`).
public indirect enum WKBShape: Sendable, Equatable {
    case point(WKBCoordinate?)
    case lineString([WKBCoordinate])
    case polygon([[WKBCoordinate]])
    case multiPoint([WKBCoordinate?])
    case multiLineString([[WKBCoordinate]])
    case multiPolygon([[[WKBCoordinate]]])
    case geometryCollection([WKBGeometry])
}

public struct WKBError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { "invalid WKB: \(message)" }
}

/// A geometry decoded from ISO WKB or EWKB (Z/M/SRID flags). Nested collections are bounded and
/// every count is checked against the remaining bytes.
public struct WKBGeometry: Sendable, Equatable {
    public var shape: WKBShape
    public var hasZ: Bool
    public var hasM: Bool
    /// EWKB SRID, if the SRID flag was set.
    public var srid: UInt32?

    static let maxDepth = 32

    public init(wkb: [UInt8]) throws(WKBError) {
        var r = WKBReader(bytes: wkb)
        self = try r.geometry(depth: 0)
        guard r.pos == wkb.count else { throw WKBError(message: "\(wkb.count - r.pos) trailing bytes") }
    }

    init(shape: WKBShape, hasZ: Bool, hasM: Bool, srid: UInt32?) {
        self.shape = shape
        self.hasZ = hasZ
        self.hasM = hasM
        self.srid = srid
    }

    /// OGC/ISO geometry type name ("POLYGON").
    public var typeName: String {
        switch shape {
        case .point: return "POINT"
        case .lineString: return "LINESTRING"
        case .polygon: return "POLYGON"
        case .multiPoint: return "MULTIPOINT"
        case .multiLineString: return "MULTILINESTRING"
        case .multiPolygon: return "MULTIPOLYGON"
        case .geometryCollection: return "GEOMETRYCOLLECTION"
        }
    }

    /// WKT text (ISO style: `POLYGON Z ((...))`, `POINT EMPTY`).
    public var wkt: String {
        var s = typeName
        if hasZ && hasM { s += " ZM" } else if hasZ { s += " Z" } else if hasM { s += " M" }
        s += " "
        s += body
        return s
    }

    private static func num(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    private static func coord(_ c: WKBCoordinate) -> String {
        var s = num(c.x) + " " + num(c.y)
        if let z = c.z { s += " " + num(z) }
        if let m = c.m { s += " " + num(m) }
        return s
    }

    private static func ring(_ r: [WKBCoordinate]) -> String {
        r.isEmpty ? "EMPTY" : "(" + r.map(coord).joined(separator: ", ") + ")"
    }

    private static func rings(_ rs: [[WKBCoordinate]]) -> String {
        rs.isEmpty ? "EMPTY" : "(" + rs.map(ring).joined(separator: ", ") + ")"
    }

    private var body: String {
        switch shape {
        case let .point(c): return c.map { "(" + Self.coord($0) + ")" } ?? "EMPTY"
        case let .lineString(cs): return Self.ring(cs)
        case let .polygon(rs): return Self.rings(rs)
        case let .multiPoint(ps):
            return ps.isEmpty ? "EMPTY" : "(" + ps.map { $0.map { "(" + Self.coord($0) + ")" } ?? "EMPTY" }.joined(separator: ", ") + ")"
        case let .multiLineString(ls): return Self.rings(ls)
        case let .multiPolygon(ps): return ps.isEmpty ? "EMPTY" : "(" + ps.map(Self.rings).joined(separator: ", ") + ")"
        case let .geometryCollection(gs): return gs.isEmpty ? "EMPTY" : "(" + gs.map(\.wkt).joined(separator: ", ") + ")"
        }
    }

    /// All coordinates in order (empty points skipped).
    public var coordinates: [WKBCoordinate] {
        switch shape {
        case let .point(c): return c.map { [$0] } ?? []
        case let .lineString(cs): return cs
        case let .polygon(rs): return rs.flatMap { $0 }
        case let .multiPoint(ps): return ps.compactMap { $0 }
        case let .multiLineString(ls): return ls.flatMap { $0 }
        case let .multiPolygon(ps): return ps.flatMap { $0.flatMap { $0 } }
        case let .geometryCollection(gs): return gs.flatMap(\.coordinates)
        }
    }

    /// 2D envelope of the WKB without building the geometry; nil for empty geometries or invalid WKB.
    public static func envelope(of wkb: [UInt8]) -> BoundingBox? {
        wkb.withUnsafeBytes { buf in
            var e = EnvelopeScanner(buf: buf)
            guard (try? e.scan(depth: 0)) != nil, e.box.xmin <= e.box.xmax else { return nil }
            return e.box
        }
    }
}

/// Parses the WKB header: byte order, base type (1...7), dimensions, optional EWKB SRID.
private struct WKBHeader {
    var littleEndian: Bool
    var base: UInt32
    var hasZ: Bool
    var hasM: Bool
    var srid: UInt32?
    var dims: Int { 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0) }
}

@inline(__always)
private func loadU32(_ p: UnsafeRawBufferPointer, _ at: Int, _ le: Bool) -> UInt32 {
    let v = p.loadUnaligned(fromByteOffset: at, as: UInt32.self)
    return le ? UInt32(littleEndian: v) : UInt32(bigEndian: v)
}

@inline(__always)
private func loadF64(_ p: UnsafeRawBufferPointer, _ at: Int, _ le: Bool) -> Double {
    let v = p.loadUnaligned(fromByteOffset: at, as: UInt64.self)
    return Double(bitPattern: le ? UInt64(littleEndian: v) : UInt64(bigEndian: v))
}

private func readHeader(_ p: UnsafeRawBufferPointer, _ pos: inout Int) throws(WKBError) -> WKBHeader {
    guard p.count - pos >= 5 else { throw WKBError(message: "header truncated") }
    let order = p[pos]
    guard order <= 1 else { throw WKBError(message: "byte order \(order)") }
    let le = order == 1
    var type = loadU32(p, pos + 1, le)
    pos += 5
    var hasZ = type & 0x8000_0000 != 0
    var hasM = type & 0x4000_0000 != 0
    var srid: UInt32?
    if type & 0x2000_0000 != 0 {
        guard p.count - pos >= 4 else { throw WKBError(message: "SRID truncated") }
        srid = loadU32(p, pos, le)
        pos += 4
    }
    type &= 0x0FFF_FFFF
    let dim = type / 1000
    let base = type % 1000
    switch dim {
    case 0: break
    case 1: hasZ = true
    case 2: hasM = true
    case 3: hasZ = true; hasM = true
    default: throw WKBError(message: "geometry type \(type)")
    }
    guard (1...7).contains(base) else { throw WKBError(message: "geometry type \(type)") }
    return WKBHeader(littleEndian: le, base: base, hasZ: hasZ, hasM: hasM, srid: srid)
}

private struct WKBReader {
    let bytes: [UInt8]
    var pos = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func geometry(depth: Int) throws(WKBError) -> WKBGeometry {
        guard depth < WKBGeometry.maxDepth else { throw WKBError(message: "collections nested too deeply") }
        let bytes = self.bytes
        var p = pos
        let result: Result<WKBGeometry, WKBError> = bytes.withUnsafeBytes { buf in
            do throws(WKBError) {
                let h = try readHeader(buf, &p)
                let dims = h.dims
                func count(_ minEach: Int) throws(WKBError) -> Int {
                    guard buf.count - p >= 4 else { throw WKBError(message: "count truncated") }
                    let n = Int(loadU32(buf, p, h.littleEndian))
                    p += 4
                    guard minEach == 0 || n <= (buf.count - p) / minEach else {
                        throw WKBError(message: "count \(n) exceeds the remaining bytes")
                    }
                    return n
                }
                func coord() -> WKBCoordinate {
                    let le = h.littleEndian
                    var c = WKBCoordinate(x: loadF64(buf, p, le), y: loadF64(buf, p + 8, le), z: nil, m: nil)
                    var o = p + 16
                    if h.hasZ { c.z = loadF64(buf, o, le); o += 8 }
                    if h.hasM { c.m = loadF64(buf, o, le) }
                    p += 8 * dims
                    return c
                }
                func points() throws(WKBError) -> [WKBCoordinate] {
                    let n = try count(8 * dims)
                    var out: [WKBCoordinate] = []
                    out.reserveCapacity(n)
                    for _ in 0..<n { out.append(coord()) }
                    return out
                }
                func rings() throws(WKBError) -> [[WKBCoordinate]] {
                    let n = try count(4)
                    var out: [[WKBCoordinate]] = []
                    out.reserveCapacity(n)
                    for _ in 0..<n { out.append(try points()) }
                    return out
                }
                let shape: WKBShape
                switch h.base {
                case 1:
                    guard buf.count - p >= 8 * dims else { throw WKBError(message: "point truncated") }
                    let c = coord()
                    shape = .point(c.x.isNaN && c.y.isNaN ? nil : c)
                case 2: shape = .lineString(try points())
                case 3: shape = .polygon(try rings())
                default:
                    let n = try count(5)
                    var parts: [WKBGeometry] = []
                    parts.reserveCapacity(n)
                    for _ in 0..<n {
                        var sub = WKBReader(bytes: bytes)
                        sub.pos = p
                        parts.append(try sub.geometry(depth: depth + 1))
                        p = sub.pos
                    }
                    switch h.base {
                    case 4:
                        var pts: [WKBCoordinate?] = []
                        for g in parts {
                            guard case let .point(c) = g.shape else { throw WKBError(message: "MULTIPOINT member is not a point") }
                            pts.append(c)
                        }
                        shape = .multiPoint(pts)
                    case 5:
                        var ls: [[WKBCoordinate]] = []
                        for g in parts {
                            guard case let .lineString(c) = g.shape else { throw WKBError(message: "MULTILINESTRING member is not a linestring") }
                            ls.append(c)
                        }
                        shape = .multiLineString(ls)
                    case 6:
                        var ps: [[[WKBCoordinate]]] = []
                        for g in parts {
                            guard case let .polygon(r) = g.shape else { throw WKBError(message: "MULTIPOLYGON member is not a polygon") }
                            ps.append(r)
                        }
                        shape = .multiPolygon(ps)
                    default:
                        shape = .geometryCollection(parts)
                    }
                }
                return .success(WKBGeometry(shape: shape, hasZ: h.hasZ, hasM: h.hasM, srid: h.srid))
            } catch {
                return .failure(error)
            }
        }
        pos = p
        return try result.get()
    }
}

/// Computes the 2D envelope of WKB bytes without allocating.
private struct EnvelopeScanner {
    let buf: UnsafeRawBufferPointer
    var pos = 0
    var box = BoundingBox(xmin: .infinity, ymin: .infinity, xmax: -.infinity, ymax: -.infinity)

    mutating func scan(depth: Int) throws(WKBError) {
        guard depth < WKBGeometry.maxDepth else { throw WKBError(message: "nested too deeply") }
        let h = try readHeader(buf, &pos)
        let le = h.littleEndian
        let stride = 8 * h.dims
        func count(_ minEach: Int) throws(WKBError) -> Int {
            guard buf.count - pos >= 4 else { throw WKBError(message: "count truncated") }
            let n = Int(loadU32(buf, pos, le))
            pos += 4
            guard n <= (buf.count - pos) / minEach else { throw WKBError(message: "count too large") }
            return n
        }
        func add(_ n: Int) {
            for _ in 0..<n {
                let x = loadF64(buf, pos, le), y = loadF64(buf, pos + 8, le)
                if !x.isNaN && !y.isNaN {
                    box.xmin = min(box.xmin, x); box.xmax = max(box.xmax, x)
                    box.ymin = min(box.ymin, y); box.ymax = max(box.ymax, y)
                }
                pos += stride
            }
        }
        switch h.base {
        case 1:
            guard buf.count - pos >= stride else { throw WKBError(message: "point truncated") }
            add(1)
        case 2: add(try count(stride))
        case 3:
            let rings = try count(4)
            for _ in 0..<rings { add(try count(stride)) }
        default:
            let n = try count(5)
            for _ in 0..<n { try scan(depth: depth + 1) }
        }
    }
}
