/// Decodes WKB (OGC, ISO and EWKB flavours; Z and M dropped) into `SourceGeometry`.
/// Bounds-checked throughout: WKB from files is untrusted.
public struct WKBReader {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case truncated
        case unknownType(UInt32)
        case tooDeep

        public var description: String {
            switch self {
            case .truncated: return "WKB ends early"
            case .unknownType(let t): return "unknown WKB geometry type \(t)"
            case .tooDeep: return "WKB nested too deeply"
            }
        }
    }

    public static func read(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> SourceGeometry {
        var cursor = Cursor(bytes: bytes)
        return try cursor.geometry(depth: 0)
    }

    public static func read(_ bytes: [UInt8]) throws(Failure) -> SourceGeometry {
        let result: Result<SourceGeometry, Failure> = bytes.withUnsafeBytes { buf in
            Result { () throws(Failure) -> SourceGeometry in try read(buf) }
        }
        return try result.get()
    }

    private enum Parsed {
        case point(Point2?)
        case line
        case polygon(Polygon?)
        case collection(type: UInt32, parts: [Parsed])
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        var littleEndian = true

        mutating func byte() throws(Failure) -> UInt8 {
            guard offset < bytes.count else { throw .truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func uint32() throws(Failure) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw .truncated }
            let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            offset += 4
            return littleEndian ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
        }

        mutating func double() throws(Failure) -> Double {
            guard offset + 8 <= bytes.count else { throw .truncated }
            let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
            return Double(bitPattern: littleEndian ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw))
        }

        /// A count, refused when the remaining bytes cannot hold that many items of `minSize`.
        mutating func count(minSize: Int) throws(Failure) -> Int {
            let n = Int(try uint32())
            guard n <= (bytes.count - offset) / max(minSize, 1) else { throw .truncated }
            return n
        }

        mutating func geometry(depth: Int) throws(Failure) -> SourceGeometry {
            let parsed = try parse(depth: depth)
            return Cursor.flatten(parsed)
        }

        mutating func parse(depth: Int) throws(Failure) -> Parsed {
            guard depth < 32 else { throw .tooDeep }
            littleEndian = try byte() == 1
            var type = try uint32()
            var dims = 2
            // EWKB flags
            if type & 0x8000_0000 != 0 { dims += 1 }
            if type & 0x4000_0000 != 0 { dims += 1 }
            if type & 0x2000_0000 != 0 { _ = try uint32() }  // SRID
            type &= 0x0FFF_FFFF
            // ISO: 1000 Z, 2000 M, 3000 ZM
            switch type / 1000 {
            case 1, 2: dims = 3
            case 3: dims = 4
            default: break
            }
            let base = type % 1000
            switch base {
            case 1:
                let p = try coordinate(dims: dims)
                return .point(p.x.isNaN && p.y.isNaN ? nil : p)
            case 2:
                let n = try count(minSize: dims * 8)
                offset += n * dims * 8
                return .line
            case 3:
                let nrings = try count(minSize: 4)
                var rings: [[Point2]] = []
                rings.reserveCapacity(nrings)
                for _ in 0..<nrings {
                    let n = try count(minSize: dims * 8)
                    var ring = [Point2]()
                    ring.reserveCapacity(n)
                    for _ in 0..<n { ring.append(try coordinate(dims: dims)) }
                    rings.append(ring)
                }
                return .polygon(rings.isEmpty ? nil : Polygon(rings: rings))
            case 4, 5, 6, 7:
                let n = try count(minSize: 5)
                var parts: [Parsed] = []
                parts.reserveCapacity(n)
                let saved = littleEndian
                for _ in 0..<n { parts.append(try parse(depth: depth + 1)) }
                littleEndian = saved
                return .collection(type: base, parts: parts)
            default:
                throw .unknownType(type)
            }
        }

        mutating func coordinate(dims: Int) throws(Failure) -> Point2 {
            let x = try double(), y = try double()
            for _ in 2..<max(dims, 2) { _ = try double() }
            return Point2(x: x, y: y)
        }

        static let typeNames: [UInt32: String] = [
            1: "Point", 2: "LineString", 3: "Polygon", 4: "MultiPoint",
            5: "MultiLineString", 6: "MultiPolygon", 7: "GeometryCollection",
        ]

        static func flatten(_ parsed: Parsed) -> SourceGeometry {
            switch parsed {
            case .point(let p):
                return p.map { .point($0) } ?? .empty("Point")
            case .line:
                return .other("LineString")
            case .polygon(let poly):
                return poly.map { .polygons(Footprint(polygons: [$0])) } ?? .empty("Polygon")
            case .collection(let type, let parts):
                let name = typeNames[type] ?? "GeometryCollection"
                var points: [Point2] = []
                var polygons: [Polygon] = []
                var others = false
                for part in parts {
                    switch part {
                    case .point(let p): if let p { points.append(p) }
                    case .polygon(let poly): if let poly { polygons.append(poly) }
                    case .line: others = true
                    case .collection: others = true
                    }
                }
                if others { return .other(name) }
                if !polygons.isEmpty && points.isEmpty { return .polygons(Footprint(polygons: polygons)) }
                if !points.isEmpty && polygons.isEmpty { return .multiPoint(points) }
                if points.isEmpty && polygons.isEmpty { return .empty(name) }
                return .other(name)
            }
        }
    }
}
