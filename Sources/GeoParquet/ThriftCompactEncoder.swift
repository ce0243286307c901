/// Encoder for the Thrift compact protocol, the inverse of `ThriftCompactDecoder`: what the
/// writer needs for the Parquet footer and page headers (structs, i32/i64, binary, bool, lists).
/// Fields must be written in increasing id order within a struct (short field headers).
struct ThriftCompactEncoder {
    typealias WireType = ThriftCompactDecoder.WireType
    private(set) var bytes: [UInt8] = []
    /// The last field id written, per open struct.
    private var lastField: [Int16] = [0]

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func zigZag(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    private mutating func fieldHeader(_ id: Int16, _ type: UInt8) {
        let delta = id - lastField[lastField.count - 1]
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type)
        } else {
            bytes.append(type)
            zigZag(Int64(id))
        }
        lastField[lastField.count - 1] = id
    }

    mutating func i32(_ id: Int16, _ v: Int32) { fieldHeader(id, WireType.i32); zigZag(Int64(v)) }
    mutating func i64(_ id: Int16, _ v: Int64) { fieldHeader(id, WireType.i64); zigZag(v) }
    mutating func bool(_ id: Int16, _ v: Bool) { fieldHeader(id, v ? WireType.boolTrue : WireType.boolFalse) }
    mutating func binary(_ id: Int16, _ v: [UInt8]) { fieldHeader(id, WireType.binary); binaryValue(v) }
    mutating func string(_ id: Int16, _ v: String) { binary(id, Array(v.utf8)) }

    mutating func appendRaw(_ b: [UInt8]) { bytes.append(contentsOf: b) }

    mutating func binaryValue(_ v: [UInt8]) {
        varint(UInt64(v.count))
        bytes.append(contentsOf: v)
    }

    /// A struct field; `body` writes its fields.
    mutating func structure(_ id: Int16, _ body: (inout ThriftCompactEncoder) -> Void) {
        fieldHeader(id, WireType.structure)
        structValue(body)
    }

    /// A struct (a list element, or the top-level message), closed with its stop byte.
    mutating func structValue(_ body: (inout ThriftCompactEncoder) -> Void) {
        lastField.append(0)
        body(&self)
        bytes.append(0)  // stop
        lastField.removeLast()
    }

    /// A list field of `count` elements of `elementType`; `body` writes them (`structValue`, `zigZag`, `binaryValue`).
    mutating func list(_ id: Int16, _ elementType: UInt8, count: Int, _ body: (inout ThriftCompactEncoder) -> Void) {
        fieldHeader(id, WireType.list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | elementType)
        } else {
            bytes.append(0xF0 | elementType)
            varint(UInt64(count))
        }
        body(&self)
    }
}
