/// Decoder for the RLE / bit-packed hybrid encoding used for definition/repetition levels,
/// dictionary indices and RLE booleans. Bit widths up to 32.
struct RLEHybridDecoder {
    let buf: UnsafeRawBufferPointer
    private(set) var pos = 0
    let bitWidth: Int

    init(_ buf: UnsafeRawBufferPointer, bitWidth: Int) throws {
        guard bitWidth >= 0 && bitWidth <= 32 else { throw DecodeError.corrupt("RLE bit width \(bitWidth) out of range") }
        self.buf = buf
        self.bitWidth = bitWidth
    }

    /// Fills `out` completely, or throws if the data ends first.
    mutating func decode<T: FixedWidthInteger>(into out: UnsafeMutableBufferPointer<T>) throws {
        let n = out.count
        guard n > 0, let base = out.baseAddress else { return }
        var i = 0
        let byteWidth = (bitWidth + 7) / 8
        while i < n {
            let header = try readULEB128(buf, &pos)
            if header & 1 == 0 {
                let runLength = header >> 1
                guard byteWidth <= buf.count - pos else { throw DecodeError.truncated("RLE run value truncated") }
                var v: UInt64 = 0
                for k in 0..<byteWidth { v |= UInt64(buf[pos + k]) << UInt64(8 * k) }
                pos += byteWidth
                guard v <= UInt64(T.max) else { throw DecodeError.corrupt("RLE value \(v) too large") }
                let take = runLength > UInt64(n - i) ? n - i : Int(runLength)
                (base + i).update(repeating: T(truncatingIfNeeded: v), count: take)
                i += take
            } else {
                let groups = header >> 1
                guard groups <= UInt64(Int.max / 64) else { throw DecodeError.corrupt("bit-packed run too long") }
                let values = Int(groups) * 8
                let bytesNeeded = Int(groups) * bitWidth
                let available = buf.count - pos
                let usableBytes = min(bytesNeeded, available)
                let usableValues = bitWidth == 0 ? values : min(values, usableBytes * 8 / bitWidth)
                let take = min(usableValues, n - i)
                if bitWidth == 0 {
                    (base + i).update(repeating: 0, count: take)
                } else {
                    let region = rebased(buf, pos, usableBytes)
                    var bit = 0
                    for j in 0..<take {
                        base[i + j] = T(truncatingIfNeeded: readBitsLE(region, bitOffset: bit, width: bitWidth))
                        bit += bitWidth
                    }
                }
                pos += usableBytes
                i += take
                if take < values && i < n { throw DecodeError.truncated("bit-packed run truncated") }
            }
        }
    }
}

/// Decodes `count` levels with the RLE hybrid encoding and checks them against `maxLevel`.
func decodeLevels(_ buf: UnsafeRawBufferPointer, count: Int, maxLevel: Int) throws -> [UInt8] {
    var levels = [UInt8](repeating: 0, count: count)
    var decoder = try RLEHybridDecoder(buf, bitWidth: bitsNeeded(maxLevel))
    try levels.withUnsafeMutableBufferPointer { try decoder.decode(into: $0) }
    let limit = UInt8(truncatingIfNeeded: maxLevel)
    for l in levels where l > limit {
        throw DecodeError.corrupt("definition level \(l) exceeds the maximum \(maxLevel)")
    }
    return levels
}
