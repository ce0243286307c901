/// Why the FlatGeobuf reader stopped: the file is damaged, or it holds something GDAL reads its
/// own way (a geometry GDAL repairs or refuses, an odd date, an index GDAL sizes differently)
/// and GDAL should read the whole file so the records stay exactly GDAL's.
enum FlatGeobufProblem: Error, Sendable {
    case corrupt(String)
    case needsGDAL(String)
}

/// A table inside a flatbuffer, read with a bounds check on every access: FlatGeobuf files are
/// untrusted input, and a bad offset must become an error, never a read outside the buffer.
/// Scalars are little-endian and may be unaligned.
struct FlatBufferTable {
    let buffer: UnsafeRawBufferPointer
    /// Where the table starts in `buffer`.
    let position: Int
    private let vtable: Int
    private let vtableSize: Int

    /// The root table of a buffer: a uint32 offset at the start.
    static func root(of buffer: UnsafeRawBufferPointer, _ what: String) throws(FlatGeobufProblem) -> FlatBufferTable {
        let offset = try FlatBufferTable.uint32(buffer, 0, what)
        return try FlatBufferTable(buffer, at: Int(offset), what)
    }

    init(_ buffer: UnsafeRawBufferPointer, at position: Int, _ what: String) throws(FlatGeobufProblem) {
        self.buffer = buffer
        self.position = position
        let soffset = Int(Int32(bitPattern: try FlatBufferTable.uint32(buffer, position, what)))
        vtable = position - soffset
        guard vtable >= 0, vtable <= buffer.count - 4 else { throw .corrupt("\(what): table layout points outside the buffer") }
        vtableSize = Int(buffer.loadUnaligned(fromByteOffset: vtable, as: UInt16.self).littleEndian)
        guard vtableSize >= 4, vtableSize % 2 == 0, vtableSize <= buffer.count - vtable else {
            throw .corrupt("\(what): table layout is damaged")
        }
    }

    /// Where field `slot` (0-based, in schema order) is stored, nil when the field is absent.
    @inline(__always)
    private func fieldPosition(_ slot: Int) -> Int? {
        let entry = 4 + 2 * slot
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(buffer.loadUnaligned(fromByteOffset: vtable + entry, as: UInt16.self).littleEndian)
        return offset == 0 ? nil : position + offset
    }

    @inline(__always)
    private func scalarPosition(_ slot: Int, size: Int, _ what: String) throws(FlatGeobufProblem) -> Int? {
        guard let at = fieldPosition(slot) else { return nil }
        guard at + size <= buffer.count else { throw .corrupt("\(what) lies outside the buffer") }
        return at
    }

    func uint8(_ slot: Int, default value: UInt8, _ what: String) throws(FlatGeobufProblem) -> UInt8 {
        guard let at = try scalarPosition(slot, size: 1, what) else { return value }
        return buffer[at]
    }

    func uint16(_ slot: Int, default value: UInt16, _ what: String) throws(FlatGeobufProblem) -> UInt16 {
        guard let at = try scalarPosition(slot, size: 2, what) else { return value }
        return buffer.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian
    }

    func int32(_ slot: Int, default value: Int32, _ what: String) throws(FlatGeobufProblem) -> Int32 {
        guard let at = try scalarPosition(slot, size: 4, what) else { return value }
        return Int32(bitPattern: buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
    }

    func uint64(_ slot: Int, default value: UInt64, _ what: String) throws(FlatGeobufProblem) -> UInt64 {
        guard let at = try scalarPosition(slot, size: 8, what) else { return value }
        return buffer.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian
    }

    /// The target of an offset field (a table, vector or string), nil when the field is absent.
    private func target(_ slot: Int, _ what: String) throws(FlatGeobufProblem) -> Int? {
        guard let at = try scalarPosition(slot, size: 4, what) else { return nil }
        let target = at + Int(buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
        guard target <= buffer.count - 4 else { throw .corrupt("\(what) points outside the buffer") }
        return target
    }

    func table(_ slot: Int, _ what: String) throws(FlatGeobufProblem) -> FlatBufferTable? {
        guard let at = try target(slot, what) else { return nil }
        return try FlatBufferTable(buffer, at: at, what)
    }

    /// A vector of fixed-size elements: where its first element is and how many there are.
    func vector(_ slot: Int, elementSize: Int, _ what: String) throws(FlatGeobufProblem) -> FlatBufferVector? {
        guard let at = try target(slot, what) else { return nil }
        let count = Int(buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
        guard count <= (buffer.count - at - 4) / elementSize else { throw .corrupt("\(what) runs past the end of the buffer") }
        return FlatBufferVector(buffer: buffer, start: at + 4, count: count)
    }

    /// A string's bytes (without the terminating NUL flatbuffers adds).
    func bytes(_ slot: Int, _ what: String) throws(FlatGeobufProblem) -> UnsafeRawBufferPointer? {
        guard let v = try vector(slot, elementSize: 1, what) else { return nil }
        return UnsafeRawBufferPointer(rebasing: buffer[v.start..<(v.start + v.count)])
    }

    func string(_ slot: Int, _ what: String) throws(FlatGeobufProblem) -> String? {
        try bytes(slot, what).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The i-th table of a vector of tables.
    func table(in vector: FlatBufferVector, _ i: Int, _ what: String) throws(FlatGeobufProblem) -> FlatBufferTable {
        let at = vector.start + 4 * i
        let target = at + Int(buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
        guard target <= buffer.count - 4 else { throw .corrupt("\(what) points outside the buffer") }
        return try FlatBufferTable(buffer, at: target, what)
    }

    static func uint32(_ buffer: UnsafeRawBufferPointer, _ at: Int, _ what: String) throws(FlatGeobufProblem) -> UInt32 {
        guard at >= 0, at <= buffer.count - 4 else { throw .corrupt("\(what) points outside the buffer") }
        return buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian
    }
}

/// Where a vector's elements are; its count is already checked against the buffer.
struct FlatBufferVector {
    let buffer: UnsafeRawBufferPointer
    let start: Int
    let count: Int

    @inline(__always)
    func double(_ i: Int) -> Double {
        Double(bitPattern: buffer.loadUnaligned(fromByteOffset: start + 8 * i, as: UInt64.self).littleEndian)
    }

    @inline(__always)
    func uint32(_ i: Int) -> UInt32 {
        buffer.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self).littleEndian
    }
}
