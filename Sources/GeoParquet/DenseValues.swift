/// Non-null values decoded from one page (or a dictionary), already converted to output types.
enum DenseValues {
    case bool([Bool])
    case int64([Int64])
    case double([Double])
    case string([String])
    case binary([[UInt8]])

    var count: Int {
        switch self {
        case let .bool(v): return v.count
        case let .int64(v): return v.count
        case let .double(v): return v.count
        case let .string(v): return v.count
        case let .binary(v): return v.count
        }
    }

    /// Looks dictionary entries up by index, checking every index.
    func gather(_ indices: [UInt32]) throws -> DenseValues {
        let size = count
        for i in indices where Int(i) >= size {
            throw DecodeError.corrupt("dictionary index \(i) out of range (dictionary has \(size) entries)")
        }
        switch self {
        case let .bool(d): return .bool(indices.map { d[Int($0)] })
        case let .int64(d): return .int64(indices.map { d[Int($0)] })
        case let .double(d): return .double(indices.map { d[Int($0)] })
        case let .string(d): return .string(indices.map { d[Int($0)] })
        case let .binary(d): return .binary(indices.map { d[Int($0)] })
        }
    }
}

/// Byte-array values as (start, length) slices of a buffer, turned into strings or byte arrays.
func materializeByteArrays(_ buf: UnsafeRawBufferPointer, starts: [Int], lengths: [Int], kind: OutputKind) -> DenseValues {
    if kind == .string {
        var out: [String] = []
        out.reserveCapacity(starts.count)
        for i in 0..<starts.count {
            out.append(String(decoding: rebased(buf, starts[i], lengths[i]), as: UTF8.self))
        }
        return .string(out)
    }
    var out: [[UInt8]] = []
    out.reserveCapacity(starts.count)
    for i in 0..<starts.count {
        out.append([UInt8](rebased(buf, starts[i], lengths[i])))
    }
    return .binary(out)
}
