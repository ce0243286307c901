/// One column's values for `GeoParquetWriter`, row by row (a placeholder where a row is null),
/// packed: text and binary as one byte buffer with offsets, numbers in flat arrays.
public struct ParquetColumnBuffer: Sendable {
    public enum Kind: Sendable { case text, binary, int64, double, boolean }
    public let name: String
    public let kind: Kind
    var isNull: [Bool] = []
    var bytes: [UInt8] = []
    var offsets: [Int] = [0]
    var ints: [Int64] = []
    var doubles: [Double] = []

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    public var count: Int { isNull.count }

    public mutating func appendNull() {
        isNull.append(true)
        switch kind {
        case .text, .binary: offsets.append(bytes.count)
        case .int64, .boolean: ints.append(0)
        case .double: doubles.append(0)
        }
    }

    public mutating func append(text: String) {
        var s = text
        s.withUTF8 { append(bytes: $0) }
    }

    public mutating func append<C: Collection>(bytes b: C) where C.Element == UInt8 {
        isNull.append(false)
        bytes.append(contentsOf: b)
        offsets.append(bytes.count)
    }

    public mutating func append(int v: Int64) { isNull.append(false); ints.append(v) }
    public mutating func append(double v: Double) { isNull.append(false); doubles.append(v) }
    public mutating func append(bool v: Bool) { isNull.append(false); ints.append(v ? 1 : 0) }

    func slice(_ row: Int) -> ArraySlice<UInt8> { bytes[offsets[row]..<offsets[row + 1]] }
}
