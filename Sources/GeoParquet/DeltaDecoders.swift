/// DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY and BYTE_STREAM_SPLIT.
enum DeltaDecoders {
    /// Decodes a DELTA_BINARY_PACKED run starting at `start`. `expected` is the number of values
    /// the caller needs; the header must announce exactly that many.
    static func binaryPacked(_ buf: UnsafeRawBufferPointer, start: Int, expected: Int) throws -> (values: [Int64], end: Int) {
        var pos = start
        let blockSize = try readULEB128(buf, &pos)
        let miniblocks = try readULEB128(buf, &pos)
        let total = try readULEB128(buf, &pos)
        let first = try readZigZagLEB128(buf, &pos)
        guard blockSize > 0, blockSize <= 1 << 20, blockSize % 128 == 0,
              miniblocks > 0, miniblocks <= blockSize, blockSize % miniblocks == 0,
              (blockSize / miniblocks) % 8 == 0 else {
            throw DecodeError.corrupt("invalid DELTA_BINARY_PACKED header (block \(blockSize), miniblocks \(miniblocks))")
        }
        guard total == UInt64(expected) else {
            throw DecodeError.corrupt("DELTA_BINARY_PACKED holds \(total) values, \(expected) expected")
        }
        let perMini = Int(blockSize / miniblocks)
        let nMini = Int(miniblocks)
        var values = [Int64](repeating: 0, count: expected)
        if expected == 0 { return (values, pos) }
        try values.withUnsafeMutableBufferPointer { out in
            out[0] = first
            var prev = first
            var i = 1
            while i < expected {
                let minDelta = try readZigZagLEB128(buf, &pos)
                guard nMini <= buf.count - pos else { throw DecodeError.truncated("DELTA_BINARY_PACKED bit widths truncated") }
                let widthsAt = pos
                pos += nMini
                for m in 0..<nMini where i < expected {
                    let w = Int(buf[widthsAt + m])
                    guard w <= 64 else { throw DecodeError.corrupt("DELTA_BINARY_PACKED bit width \(w)") }
                    let bytes = perMini * w / 8
                    guard bytes <= buf.count - pos else { throw DecodeError.truncated("DELTA_BINARY_PACKED miniblock truncated") }
                    let region = rebased(buf, pos, bytes)
                    let take = min(perMini, expected - i)
                    var bit = 0
                    for _ in 0..<take {
                        let raw = readBitsLE(region, bitOffset: bit, width: w)
                        bit += w
                        prev = prev &+ minDelta &+ Int64(bitPattern: raw)
                        out[i] = prev
                        i += 1
                    }
                    pos += bytes
                }
            }
        }
        return (values, pos)
    }

    static func lengthByteArray(_ buf: UnsafeRawBufferPointer, count: Int, kind: OutputKind) throws -> DenseValues {
        let (lengths64, end) = try binaryPacked(buf, start: 0, expected: count)
        var pos = end
        var starts = [Int](repeating: 0, count: count)
        var lengths = [Int](repeating: 0, count: count)
        for i in 0..<count {
            let l = lengths64[i]
            guard l >= 0, l <= Int64(buf.count - pos) else { throw DecodeError.corrupt("DELTA_LENGTH_BYTE_ARRAY length \(l) invalid at value \(i)") }
            starts[i] = pos
            lengths[i] = Int(l)
            pos += Int(l)
        }
        return materializeByteArrays(buf, starts: starts, lengths: lengths, kind: kind)
    }

    static func byteArray(_ buf: UnsafeRawBufferPointer, count: Int, kind: OutputKind) throws -> DenseValues {
        let (prefixes, end1) = try binaryPacked(buf, start: 0, expected: count)
        let (suffixes, end2) = try binaryPacked(buf, start: end1, expected: count)
        var pos = end2
        var previous: [UInt8] = []
        var values: [[UInt8]] = []
        values.reserveCapacity(count)
        for i in 0..<count {
            let p = prefixes[i], s = suffixes[i]
            guard p >= 0, p <= Int64(previous.count), s >= 0, s <= Int64(buf.count - pos) else {
                throw DecodeError.corrupt("DELTA_BYTE_ARRAY prefix/suffix length invalid at value \(i)")
            }
            var v = [UInt8]()
            v.reserveCapacity(Int(p) + Int(s))
            v.append(contentsOf: previous[0..<Int(p)])
            v.append(contentsOf: rebased(buf, pos, Int(s)))
            pos += Int(s)
            values.append(v)
            previous = v
        }
        switch kind {
        case .string: return .string(values.map { String(decoding: $0, as: UTF8.self) })
        case .float16: return .double(values.map { $0.count == 2 ? halfToDouble(UInt16($0[0]) | UInt16($0[1]) << 8) : .nan })
        default: return .binary(values)
        }
    }

    /// BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY.
    static func byteStreamSplit(_ buf: UnsafeRawBufferPointer, count: Int, leaf: LeafColumn, kind: OutputKind) throws -> DenseValues {
        let width: Int
        switch leaf.physicalType {
        case .float, .int32: width = 4
        case .double, .int64: width = 8
        case .fixedLenByteArray: width = leaf.typeLength
        default: throw DecodeError.unsupported("BYTE_STREAM_SPLIT for \(leaf.physicalType) is not supported")
        }
        guard width > 0, count <= buf.count / width else { throw DecodeError.truncated("BYTE_STREAM_SPLIT data truncated") }
        // Re-interleave into PLAIN layout, then reuse the PLAIN decoder.
        var plain = [UInt8](repeating: 0, count: count * width)
        plain.withUnsafeMutableBufferPointer { out in
            for b in 0..<width {
                let stream = b * count
                for i in 0..<count { out[i * width + b] = buf[stream + i] }
            }
        }
        return try plain.withUnsafeBytes { try PlainDecoder.decode($0, count: count, leaf: leaf, kind: kind) }
    }
}
