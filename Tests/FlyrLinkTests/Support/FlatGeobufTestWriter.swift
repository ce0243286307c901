import Foundation

/// A small FlatGeobuf writer for the tests: files with what GDAL's writer never makes (features
/// without geometry, column types GDAL does not write, odd dates, no CRS code), which GDAL must
/// still read — it is the reference the project's reader is compared with. Buffers are laid out
/// front to back, aligned as flatbuffers' verifier (which GDAL runs) requires. No spatial index.
struct FlatGeobufTestWriter {
    /// A flatbuffer field value.
    enum Field {
        case u8(UInt8)
        case u16(UInt16)
        case i32(Int32)
        case u64(UInt64)
        case string(String)
        case bytes([UInt8])
        case doubles([Double])
        case uints([UInt32])
        case table([Int: Field])
        case tables([[Int: Field]])
    }

    struct Column {
        var name: String
        /// FlatGeobuf ColumnType number.
        var type: UInt8
        var width: Int32? = nil
        var precision: Int32? = nil
        var scale: Int32? = nil
    }

    /// A geometry table's fields (slots of feature.fbs's Geometry).
    static func geometry(type: UInt8? = nil, xy: [Double]? = nil, ends: [UInt32]? = nil, z: [Double]? = nil,
                         parts: [[Int: Field]]? = nil) -> [Int: Field] {
        var fields: [Int: Field] = [:]
        fields[0] = ends.map { .uints($0) }
        fields[1] = xy.map { .doubles($0) }
        fields[2] = z.map { .doubles($0) }
        fields[6] = type.map { .u8($0) }
        fields[7] = parts.map { .tables($0) }
        return fields
    }

    /// Property bytes: (column index, value bytes) pairs.
    static func properties(_ values: [(UInt16, [UInt8])]) -> [UInt8] {
        values.flatMap { le($0.0) + $0.1 }
    }

    static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
    static func le(_ v: Double) -> [UInt8] { le(v.bitPattern) }
    static func le(_ v: Float) -> [UInt8] { le(v.bitPattern) }
    static func text(_ s: String) -> [UInt8] { le(UInt32(s.utf8.count)) + Array(s.utf8) }

    var name: String? = "test"
    var geometryType: UInt8
    var hasZ = false
    var columns: [Column] = []
    var crs: [Int: Field]? = [0: .string("EPSG"), 1: .i32(4326)]
    /// Written as the header's count; nil writes 0 (unknown: read to the end).
    var featuresCount: UInt64?
    /// (geometry table or nil, property bytes or nil)
    var features: [([Int: Field]?, [UInt8]?)] = []

    func data() -> Data {
        var header: [Int: Field] = [2: .u8(geometryType), 9: .u16(0), 8: .u64(featuresCount ?? 0)]
        header[0] = name.map { .string($0) }
        if hasZ { header[3] = .u8(1) }
        if !columns.isEmpty {
            header[7] = .tables(columns.map { c in
                var f: [Int: Field] = [0: .string(c.name), 1: .u8(c.type)]
                f[4] = c.width.map { .i32($0) }
                f[5] = c.precision.map { .i32($0) }
                f[6] = c.scale.map { .i32($0) }
                return f
            })
        }
        header[10] = crs.map { .table($0) }
        var out: [UInt8] = [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00]
        let h = Self.buffer(header)
        out += Self.le(UInt32(h.count)) + h
        for (geometry, props) in features {
            var f: [Int: Field] = [:]
            f[0] = geometry.map { .table($0) }
            f[1] = props.map { .bytes($0) }
            let b = Self.buffer(f)
            out += Self.le(UInt32(b.count)) + b
        }
        return Data(out)
    }

    /// One flatbuffer whose root is a table with `fields`.
    static func buffer(_ fields: [Int: Field]) -> [UInt8] {
        var b = Builder()
        b.bytes = [0, 0, 0, 0]
        let root = b.table(fields)
        b.patch(at: 0, to: root)
        b.align(8)
        return b.bytes
    }

    private struct Builder {
        var bytes: [UInt8] = []

        mutating func align(_ n: Int, plus: Int = 0) {
            while (bytes.count + plus) % n != 0 { bytes.append(0) }
        }

        /// Writes an unsigned offset at `at` pointing forward to `target`.
        mutating func patch(at: Int, to target: Int) {
            let v = UInt32(target - at)
            for i in 0..<4 { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * i)) }
        }

        static func size(_ f: Field) -> Int {
            switch f {
            case .u8: return 1
            case .u16: return 2
            case .i32: return 4
            case .u64: return 8
            default: return 4  // an offset
            }
        }

        /// vtable, then the table (8-aligned), then its children; returns the table's position.
        mutating func table(_ unordered: [Int: Field]) -> Int {
            let fields = unordered.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            // Field offsets within the table: after the 4-byte vtable offset, each aligned to its size.
            var layout: [(slot: Int, offset: Int)] = []
            var end = 4
            for (slot, f) in fields {
                let s = Self.size(f)
                end = (end + s - 1) / s * s
                layout.append((slot, end))
                end += s
            }
            let slots = (fields.map(\.0).max() ?? -1) + 1
            align(2)
            let vtable = bytes.count
            bytes += FlatGeobufTestWriter.le(UInt16(4 + 2 * slots)) + FlatGeobufTestWriter.le(UInt16(end))
            var entries = [UInt16](repeating: 0, count: slots)
            for l in layout { entries[l.slot] = UInt16(l.offset) }
            for e in entries { bytes += FlatGeobufTestWriter.le(e) }
            align(8)
            let table = bytes.count
            bytes += FlatGeobufTestWriter.le(Int32(table - vtable))
            bytes += [UInt8](repeating: 0, count: end - 4)
            var children: [(at: Int, field: Field)] = []
            for ((_, f), l) in zip(fields, layout) {
                let at = table + l.offset
                var scalar: [UInt8] = []
                switch f {
                case .u8(let v): scalar = [v]
                case .u16(let v): scalar = FlatGeobufTestWriter.le(v)
                case .i32(let v): scalar = FlatGeobufTestWriter.le(v)
                case .u64(let v): scalar = FlatGeobufTestWriter.le(v)
                default: children.append((at, f))
                }
                for (i, byte) in scalar.enumerated() { bytes[at + i] = byte }
            }
            for (at, f) in children { patch(at: at, to: child(f)) }
            return table
        }

        mutating func child(_ f: Field) -> Int {
            switch f {
            case .string(let s):
                align(4)
                let at = bytes.count
                bytes += FlatGeobufTestWriter.le(UInt32(s.utf8.count)) + Array(s.utf8) + [0]
                return at
            case .bytes(let v):
                align(4)
                let at = bytes.count
                bytes += FlatGeobufTestWriter.le(UInt32(v.count)) + v
                return at
            case .uints(let v):
                align(4)
                let at = bytes.count
                bytes += FlatGeobufTestWriter.le(UInt32(v.count)) + v.flatMap { FlatGeobufTestWriter.le($0) }
                return at
            case .doubles(let v):
                align(8, plus: 4)  // the elements after the count are 8-aligned
                let at = bytes.count
                bytes += FlatGeobufTestWriter.le(UInt32(v.count)) + v.flatMap { FlatGeobufTestWriter.le($0) }
                return at
            case .table(let fields):
                return table(fields)
            case .tables(let list):
                align(4)
                let at = bytes.count
                bytes += FlatGeobufTestWriter.le(UInt32(list.count)) + [UInt8](repeating: 0, count: 4 * list.count)
                for (i, fields) in list.enumerated() { patch(at: at + 4 + 4 * i, to: table(fields)) }
                return at
            default:
                fatalError("not an offset field")
            }
        }
    }
}
