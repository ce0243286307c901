/// PLAIN encoding for every supported physical type.
enum PlainDecoder {
    static func decode(_ buf: UnsafeRawBufferPointer, count: Int, leaf: LeafColumn, kind: OutputKind) throws -> DenseValues {
        guard count >= 0 else { throw DecodeError.corrupt("negative value count") }
        switch leaf.physicalType {
        case .boolean:
            guard count <= buf.count * 8 else { throw DecodeError.truncated("PLAIN booleans truncated") }
            var out = [Bool](repeating: false, count: count)
            for i in 0..<count { out[i] = (buf[i >> 3] >> UInt8(i & 7)) & 1 == 1 }
            return .bool(out)
        case .int32:
            guard count <= buf.count / 4 else { throw DecodeError.truncated("PLAIN INT32 values truncated (\(count) values, \(buf.count) bytes)") }
            var out = [Int64](repeating: 0, count: count)
            out.withUnsafeMutableBufferPointer { o in
                if kind == .uint32 {
                    for i in 0..<count { o[i] = Int64(buf.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self).littleEndian) }
                } else {
                    for i in 0..<count { o[i] = Int64(buf.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self).littleEndian) }
                }
            }
            return .int64(out)
        case .int64:
            guard count <= buf.count / 8 else { throw DecodeError.truncated("PLAIN INT64 values truncated (\(count) values, \(buf.count) bytes)") }
            var out = [Int64](repeating: 0, count: count)
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<count { o[i] = buf.loadUnaligned(fromByteOffset: 8 * i, as: Int64.self).littleEndian }
            }
            return .int64(out)
        case .float:
            guard count <= buf.count / 4 else { throw DecodeError.truncated("PLAIN FLOAT values truncated") }
            var out = [Double](repeating: 0, count: count)
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<count { o[i] = Double(Float(bitPattern: buf.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self).littleEndian)) }
            }
            return .double(out)
        case .double:
            guard count <= buf.count / 8 else { throw DecodeError.truncated("PLAIN DOUBLE values truncated") }
            var out = [Double](repeating: 0, count: count)
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<count { o[i] = Double(bitPattern: buf.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self).littleEndian) }
            }
            return .double(out)
        case .byteArray:
            // Each value takes at least 4 bytes, which bounds the allocation.
            guard count <= buf.count / 4 else { throw DecodeError.truncated("PLAIN BYTE_ARRAY values truncated (\(count) values, \(buf.count) bytes)") }
            var starts = [Int](repeating: 0, count: count)
            var lengths = [Int](repeating: 0, count: count)
            var pos = 0
            for i in 0..<count {
                guard buf.count - pos >= 4 else { throw DecodeError.truncated("PLAIN BYTE_ARRAY length truncated at value \(i)") }
                let len = Int(buf.loadUnaligned(fromByteOffset: pos, as: UInt32.self).littleEndian)
                pos += 4
                guard len <= buf.count - pos else { throw DecodeError.truncated("PLAIN BYTE_ARRAY value \(i) of \(len) bytes exceeds the page") }
                starts[i] = pos
                lengths[i] = len
                pos += len
            }
            return materializeByteArrays(buf, starts: starts, lengths: lengths, kind: kind)
        case .fixedLenByteArray:
            let w = leaf.typeLength
            guard w > 0, count <= buf.count / w else { throw DecodeError.truncated("PLAIN FIXED_LEN_BYTE_ARRAY values truncated") }
            if kind == .float16 {
                return .double((0..<count).map { halfToDouble(buf.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self).littleEndian) })
            }
            let starts = (0..<count).map { $0 * w }
            return materializeByteArrays(buf, starts: starts, lengths: [Int](repeating: w, count: count), kind: kind)
        case .int96:
            throw DecodeError.unsupported("INT96 columns are not supported")
        }
    }
}
