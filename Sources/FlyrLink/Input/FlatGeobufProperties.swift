import Foundation

/// Reads a feature's `properties` bytes — (uint16 column, value) pairs — and gives the wanted
/// columns' values as the text GDAL would give (`OGR_F_GetFieldAsString` of the field GDAL makes of
/// each column type). Every value is checked against the bytes, wanted or not, as GDAL does.
/// Its per-column tables are plain buffers: this runs for every column of millions of features,
/// and Swift array reads there cost reference counting. Immutable after init, shared by threads.
final class FlatGeobufProperties: @unchecked Sendable {
    /// How a wanted Real column is written: GDAL's Real field with or without width, or Float32.
    enum RealText: Sendable {
        case shortest15
        case fixed(Int)
        case float32
    }

    private let types: UnsafeMutableBufferPointer<FlatGeobufColumnType>
    /// Column → slot in the decoder's value array, -1 for a column nobody asks for.
    private let slotOfColumn: UnsafeMutableBufferPointer<Int>
    private let realText: UnsafeMutableBufferPointer<RealText>
    private let hasColumns: Bool
    let columnCount: Int

    /// `wanted`: the columns whose values are needed, in slot order.
    init(columns: [FlatGeobufHeader.Column]?, wanted: [Int]) throws(FlatGeobufProblem) {
        let list = columns ?? []
        hasColumns = columns != nil
        columnCount = list.count
        var slots = [Int](repeating: -1, count: list.count)
        for (slot, column) in wanted.enumerated() { slots[column] = slot }
        let texts = try list.indices.map { i throws(FlatGeobufProblem) in slots[i] >= 0 ? try Self.realText(list[i]) : .shortest15 }
        types = .allocate(capacity: list.count)
        _ = types.initialize(from: list.map(\.type))
        slotOfColumn = .allocate(capacity: list.count)
        _ = slotOfColumn.initialize(from: slots)
        realText = .allocate(capacity: list.count)
        _ = realText.initialize(from: texts)
    }

    deinit {
        types.deallocate()
        slotOfColumn.deallocate()
        realText.deallocate()
    }

    /// The OGR Real field GDAL makes of a column: width from `precision` (Float/Double) or `width`
    /// (ULong), decimals from `scale`; with a width GDAL writes `%.<decimals>f`.
    private static func realText(_ c: FlatGeobufHeader.Column) throws(FlatGeobufProblem) -> RealText {
        var width: Int32 = 0
        if c.width != -1 && c.type != .float && c.type != .double { width = max(0, c.width) }
        if c.precision != -1 { width = max(0, c.precision) }
        if width != 0 {
            guard c.scale >= -1, c.scale <= 60 else { throw .needsGDAL("column \(c.name) has scale \(c.scale)") }
            return .fixed(Int(max(0, c.scale)))
        }
        return c.type == .float ? .float32 : .shortest15
    }

    /// Fills `values[slot]` for each wanted column present (others stay nil: unset in GDAL).
    /// `seen`/`stamp` catch a column given twice, which GDAL refuses.
    func read(_ p: UnsafeRawBufferPointer, into values: UnsafeMutableBufferPointer<String?>,
              seen: UnsafeMutableBufferPointer<UInt32>, stamp: UInt32) throws(FlatGeobufProblem) {
        let size = p.count
        if size > 0 && size < 3 { throw .corrupt("properties too short") }
        var at = 0
        while at + 1 < size {
            let column = Int(p.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian)
            at += 2
            guard hasColumns else { throw .corrupt("properties but no columns in the header") }
            guard column < columnCount else { throw .corrupt("property for column \(column) of \(columnCount)") }
            guard seen[column] != stamp else { throw .corrupt("column \(column) given twice") }
            seen[column] = stamp
            let slot = slotOfColumn[column]
            switch types[column] {
            case .bool, .ubyte:
                try need(1, at, size)
                if slot >= 0 { values[slot] = String(p[at]) }
                at += 1
            case .byte:
                try need(1, at, size)
                if slot >= 0 { values[slot] = String(Int8(bitPattern: p[at])) }
                at += 1
            case .short:
                try need(2, at, size)
                if slot >= 0 { values[slot] = String(Int16(bitPattern: load(p, at, UInt16.self))) }
                at += 2
            case .ushort:
                try need(2, at, size)
                if slot >= 0 { values[slot] = String(load(p, at, UInt16.self)) }
                at += 2
            case .int:
                try need(4, at, size)
                if slot >= 0 { values[slot] = String(Int32(bitPattern: load(p, at, UInt32.self))) }
                at += 4
            case .uint:
                try need(4, at, size)
                if slot >= 0 { values[slot] = String(load(p, at, UInt32.self)) }
                at += 4
            case .long:
                try need(8, at, size)
                if slot >= 0 { values[slot] = String(Int64(bitPattern: load(p, at, UInt64.self))) }
                at += 8
            case .ulong:
                try need(8, at, size)
                if slot >= 0 { values[slot] = real(Double(load(p, at, UInt64.self)), column) }
                at += 8
            case .float:
                try need(4, at, size)
                if slot >= 0 {
                    let f = Float(bitPattern: load(p, at, UInt32.self))
                    if case .float32 = realText[column] { values[slot] = OGRFieldText.float32(f) } else { values[slot] = real(Double(f), column) }
                }
                at += 4
            case .double:
                try need(8, at, size)
                if slot >= 0 { values[slot] = real(Double(bitPattern: load(p, at, UInt64.self)), column) }
                at += 8
            case .string, .json, .dateTime, .binary:
                try need(4, at, size)
                let length = Int(load(p, at, UInt32.self))
                at += 4
                guard length <= size - at else { throw .corrupt("property value runs past the end of the properties") }
                let bytes = UnsafeRawBufferPointer(rebasing: p[at..<(at + length)])
                at += length
                switch types[column] {
                case .dateTime:
                    guard length <= 32 else { throw .corrupt("a date-time value of \(length) bytes") }  // GDAL's limit
                    if slot >= 0 { values[slot] = try FlatGeobufDateTime.text(bytes) }
                case .binary:
                    if slot >= 0 { values[slot] = OGRFieldText.hex(bytes) }
                default:
                    if slot >= 0 { values[slot] = Self.cString(bytes) }
                }
            }
        }
    }

    @inline(__always)
    private func need(_ n: Int, _ at: Int, _ size: Int) throws(FlatGeobufProblem) {
        guard n <= size - at else { throw .corrupt("property value runs past the end of the properties") }
    }

    @inline(__always)
    private func load<T: FixedWidthInteger>(_ p: UnsafeRawBufferPointer, _ at: Int, _ type: T.Type) -> T {
        T(littleEndian: p.loadUnaligned(fromByteOffset: at, as: T.self))
    }

    private func real(_ x: Double, _ column: Int) -> String {
        switch realText[column] {
        case .shortest15, .float32: return OGRFieldText.real(x)
        case .fixed(let decimals): return OGRFieldText.fixed(x, precision: decimals)
        }
    }

    /// Text up to the first NUL, invalid UTF-8 repaired: what GDAL's C string becomes in Swift.
    static func cString(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        let end = memchr(base, 0, bytes.count).map { $0 - UnsafeMutableRawPointer(mutating: base) } ?? bytes.count
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
    }
}
