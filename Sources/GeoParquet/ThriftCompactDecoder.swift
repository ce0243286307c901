/// Decoder for the Thrift compact protocol, as used by the Parquet footer and page headers.
/// Every read is bounds-checked against `end`, nesting depth is limited and list/map sizes are
/// checked against the bytes that remain, so malformed input only ever throws.
struct ThriftCompactDecoder {
    static let maxDepth = 48

    enum WireType {
        static let boolTrue: UInt8 = 1
        static let boolFalse: UInt8 = 2
        static let byte: UInt8 = 3
        static let i16: UInt8 = 4
        static let i32: UInt8 = 5
        static let i64: UInt8 = 6
        static let double: UInt8 = 7
        static let binary: UInt8 = 8
        static let list: UInt8 = 9
        static let set: UInt8 = 10
        static let map: UInt8 = 11
        static let structure: UInt8 = 12
    }

    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int
    private var depth = 0

    init(bytes: [UInt8], start: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        let e = min(max(end ?? bytes.count, 0), bytes.count)
        self.end = e
        self.position = min(max(start, 0), e)
    }

    var remaining: Int { end - position }

    mutating func readByte() throws -> UInt8 {
        guard position < end else { throw DecodeError.truncated("Thrift data ends unexpectedly") }
        let b = bytes[position]
        position += 1
        return b
    }

    mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try readByte()
            if shift == 63 && b > 1 { throw DecodeError.metadata("Thrift varint overflows 64 bits") }
            result |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw DecodeError.metadata("Thrift varint too long") }
        }
    }

    mutating func readZigZag() throws -> Int64 {
        let v = try readVarint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    /// Reads an integer field of any Thrift integer wire type.
    mutating func readInt(_ type: UInt8) throws -> Int64 {
        switch type {
        case WireType.byte: return Int64(Int8(bitPattern: try readByte()))
        case WireType.i16, WireType.i32, WireType.i64: return try readZigZag()
        default: throw DecodeError.metadata("Thrift type \(type) where an integer was expected")
        }
    }

    mutating func readI32(_ type: UInt8) throws -> Int32 {
        let v = try readInt(type)
        guard let r = Int32(exactly: v) else { throw DecodeError.metadata("Thrift i32 out of range: \(v)") }
        return r
    }

    mutating func readBool(_ type: UInt8) throws -> Bool {
        switch type {
        case WireType.boolTrue: return true
        case WireType.boolFalse: return false
        default: throw DecodeError.metadata("Thrift type \(type) where a bool was expected")
        }
    }

    mutating func readDouble(_ type: UInt8) throws -> Double {
        guard type == WireType.double else { throw DecodeError.metadata("Thrift type \(type) where a double was expected") }
        guard remaining >= 8 else { throw DecodeError.truncated("Thrift double truncated") }
        var bits: UInt64 = 0
        for i in 0..<8 { bits |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
        position += 8
        return Double(bitPattern: bits)
    }

    /// Returns the byte range of a binary/string value inside `bytes`.
    mutating func readBinaryRange(_ type: UInt8) throws -> Range<Int> {
        guard type == WireType.binary else { throw DecodeError.metadata("Thrift type \(type) where binary was expected") }
        let len = try readVarint()
        guard len <= UInt64(remaining) else { throw DecodeError.truncated("Thrift binary of \(len) bytes exceeds the \(remaining) remaining") }
        let start = position
        position += Int(len)
        return start..<position
    }

    mutating func readBinary(_ type: UInt8) throws -> [UInt8] {
        Array(bytes[try readBinaryRange(type)])
    }

    mutating func readString(_ type: UInt8) throws -> String {
        String(decoding: bytes[try readBinaryRange(type)], as: UTF8.self)
    }

    /// Reads a list/set header and returns the element type and count.
    mutating func readListHeader(_ type: UInt8) throws -> (elementType: UInt8, count: Int) {
        guard type == WireType.list || type == WireType.set else {
            throw DecodeError.metadata("Thrift type \(type) where a list was expected")
        }
        let b = try readByte()
        var count = UInt64(b >> 4)
        if count == 15 { count = try readVarint() }
        // Every element takes at least one byte.
        guard count <= UInt64(remaining) else {
            throw DecodeError.truncated("Thrift list of \(count) elements exceeds the \(remaining) remaining bytes")
        }
        return (b & 0x0f, Int(count))
    }

    /// Reads a struct, calling `body` with each field id and wire type. `body` must consume the
    /// field value (or call `skip`).
    mutating func readStruct(_ body: (inout ThriftCompactDecoder, Int16, UInt8) throws -> Void) throws {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw DecodeError.metadata("Thrift structures nested too deeply") }
        var lastId: Int16 = 0
        while true {
            let header = try readByte()
            if header == 0 { return }
            let type = header & 0x0f
            let delta = header >> 4
            let id: Int16
            if delta == 0 {
                let v = try readZigZag()
                guard let i = Int16(exactly: v) else { throw DecodeError.metadata("Thrift field id out of range") }
                id = i
            } else {
                let (s, o) = lastId.addingReportingOverflow(Int16(delta))
                guard !o else { throw DecodeError.metadata("Thrift field id overflow") }
                id = s
            }
            lastId = id
            try body(&self, id, type)
        }
    }

    /// Reads a list whose elements are parsed by `element`.
    mutating func readList<T>(_ type: UInt8, _ element: (inout ThriftCompactDecoder, UInt8) throws -> T) throws -> [T] {
        let (elemType, count) = try readListHeader(type)
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw DecodeError.metadata("Thrift structures nested too deeply") }
        var out: [T] = []
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(try element(&self, elemType)) }
        return out
    }

    /// Skips a value of the given wire type. `inCollection` selects the list encoding of bools.
    mutating func skip(_ type: UInt8, inCollection: Bool = false) throws {
        switch type {
        case WireType.boolTrue, WireType.boolFalse:
            if inCollection { _ = try readByte() }
        case WireType.byte:
            _ = try readByte()
        case WireType.i16, WireType.i32, WireType.i64:
            _ = try readVarint()
        case WireType.double:
            guard remaining >= 8 else { throw DecodeError.truncated("Thrift double truncated") }
            position += 8
        case WireType.binary:
            _ = try readBinaryRange(type)
        case WireType.list, WireType.set:
            let (elemType, count) = try readListHeader(type)
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw DecodeError.metadata("Thrift structures nested too deeply") }
            for _ in 0..<count { try skip(elemType, inCollection: true) }
        case WireType.map:
            let count = try readVarint()
            if count == 0 { return }
            guard count <= UInt64(remaining) else { throw DecodeError.truncated("Thrift map too large") }
            let types = try readByte()
            depth += 1
            defer { depth -= 1 }
            guard depth <= Self.maxDepth else { throw DecodeError.metadata("Thrift structures nested too deeply") }
            for _ in 0..<Int(count) {
                try skip(types >> 4, inCollection: true)
                try skip(types & 0x0f, inCollection: true)
            }
        case WireType.structure:
            try readStruct { d, _, t in try d.skip(t) }
        default:
            throw DecodeError.metadata("unknown Thrift wire type \(type)")
        }
    }

    /// Reads a list element of integer type.
    mutating func readListI32(_ type: UInt8) throws -> [Int32] {
        try readList(type) { d, t in try d.readI32(t) }
    }
}
