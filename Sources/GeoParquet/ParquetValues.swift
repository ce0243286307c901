/// Decoded values of one column for the rows of a batch. Integers of all widths widen to
/// `int64` (unsigned 32-bit values zero-extend; UINT_64 keeps its bit pattern), FLOAT/FLOAT16 widen
/// to `double`, STRING/ENUM/JSON byte arrays become `string`, other byte arrays and fixed-length
/// byte arrays `binary`. `nil` is a null.
public enum ParquetValues: Sendable, Equatable {
    case int64([Int64?])
    case double([Double?])
    case string([String?])
    case bool([Bool?])
    case binary([[UInt8]?])

    public var count: Int {
        switch self {
        case let .int64(v): return v.count
        case let .double(v): return v.count
        case let .string(v): return v.count
        case let .bool(v): return v.count
        case let .binary(v): return v.count
        }
    }

    public var int64Values: [Int64?]? { if case let .int64(v) = self { return v }; return nil }
    public var doubleValues: [Double?]? { if case let .double(v) = self { return v }; return nil }
    public var stringValues: [String?]? { if case let .string(v) = self { return v }; return nil }
    public var boolValues: [Bool?]? { if case let .bool(v) = self { return v }; return nil }
    public var binaryValues: [[UInt8]?]? { if case let .binary(v) = self { return v }; return nil }

    /// Numeric value as Double (ints converted), or nil.
    func doubleValue(at i: Int) -> Double? {
        switch self {
        case let .double(v): return v[i]
        case let .int64(v): return v[i].map { Double($0) }
        default: return nil
        }
    }

    /// Keeps the rows whose `keep` flag is set.
    func filtered(_ keep: [Bool]) -> ParquetValues {
        func f<T>(_ v: [T]) -> [T] {
            var out: [T] = []
            out.reserveCapacity(v.count)
            for i in 0..<min(v.count, keep.count) where keep[i] { out.append(v[i]) }
            return out
        }
        switch self {
        case let .int64(v): return .int64(f(v))
        case let .double(v): return .double(f(v))
        case let .string(v): return .string(f(v))
        case let .bool(v): return .bool(f(v))
        case let .binary(v): return .binary(f(v))
        }
    }
}

/// Collects the values of a column chunk page by page, placing nulls from definition levels.
/// Keeps one typed array per kind so that appends never copy.
struct ValueAccumulator {
    private let kind: OutputKind
    private var bools: [Bool?] = []
    private var ints: [Int64?] = []
    private var doubles: [Double?] = []
    private var strings: [String?] = []
    private var binaries: [[UInt8]?] = []

    init(kind: OutputKind, reserve: Int) {
        self.kind = kind
        switch kind {
        case .bool: bools.reserveCapacity(reserve)
        case .int64, .uint32: ints.reserveCapacity(reserve)
        case .double, .float16: doubles.reserveCapacity(reserve)
        case .string: strings.reserveCapacity(reserve)
        case .binary, .unsupported: binaries.reserveCapacity(reserve)
        }
    }

    var values: ParquetValues {
        switch kind {
        case .bool: return .bool(bools)
        case .int64, .uint32: return .int64(ints)
        case .double, .float16: return .double(doubles)
        case .string: return .string(strings)
        case .binary, .unsupported: return .binary(binaries)
        }
    }

    private static func scatter<T>(_ dense: [T], _ defs: [UInt8]?, _ maxDef: UInt8, _ out: inout [T?]) {
        guard let defs else {
            for v in dense { out.append(v) }
            return
        }
        var k = 0
        for d in defs {
            if d == maxDef, k < dense.count {
                out.append(dense[k])
                k += 1
            } else {
                out.append(nil)
            }
        }
    }

    /// Appends one page. `dense.count` must equal the number of levels equal to `maxDef`.
    mutating func append(_ dense: DenseValues, defs: [UInt8]?, maxDef: Int) throws {
        let md = UInt8(truncatingIfNeeded: maxDef)
        switch (kind, dense) {
        case (.bool, .bool(let d)): Self.scatter(d, defs, md, &bools)
        case (.int64, .int64(let d)), (.uint32, .int64(let d)): Self.scatter(d, defs, md, &ints)
        case (.double, .double(let d)), (.float16, .double(let d)): Self.scatter(d, defs, md, &doubles)
        case (.string, .string(let d)): Self.scatter(d, defs, md, &strings)
        case (.binary, .binary(let d)): Self.scatter(d, defs, md, &binaries)
        default: throw DecodeError.corrupt("page value type does not match the column type")
        }
    }
}
