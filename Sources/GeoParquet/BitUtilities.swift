/// Small helpers for bit-level and little-endian reads over raw buffers. All reads are
/// bounds-checked by callers or fall back to a checked slow path.

@inline(__always)
func bitsNeeded(_ maxValue: Int) -> Int {
    maxValue <= 0 ? 0 : (Int.bitWidth - maxValue.leadingZeroBitCount)
}

/// Reads `width` (0...64) bits starting at bit `bitOffset` (LSB-first) from `buf`.
/// Bytes beyond the end of `buf` read as zero.
@inline(__always)
func readBitsLE(_ buf: UnsafeRawBufferPointer, bitOffset: Int, width: Int) -> UInt64 {
    if width == 0 { return 0 }
    let byteIndex = bitOffset >> 3
    let shift = bitOffset & 7
    if shift + width <= 64 && byteIndex + 8 <= buf.count {
        let word = buf.loadUnaligned(fromByteOffset: byteIndex, as: UInt64.self).littleEndian
        let v = word >> UInt64(shift)
        return width == 64 ? v : v & ((1 << UInt64(width)) - 1)
    }
    var v: UInt64 = 0
    var got = 0
    var bp = bitOffset
    while got < width {
        let bi = bp >> 3
        let b: UInt64 = bi < buf.count ? UInt64(buf[bi]) : 0
        let off = bp & 7
        let n = min(8 - off, width - got)
        let bits = (b >> UInt64(off)) & ((1 << UInt64(n)) - 1)
        v |= bits << UInt64(got)
        got += n
        bp += n
    }
    return v
}

/// A cursor for ULEB128 varints over a raw buffer.
@inline(__always)
func readULEB128(_ buf: UnsafeRawBufferPointer, _ pos: inout Int) throws -> UInt64 {
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
        guard pos < buf.count else { throw DecodeError.truncated("varint runs past the end of the page") }
        let b = buf[pos]
        pos += 1
        if shift == 63 && b > 1 { throw DecodeError.corrupt("varint overflows 64 bits") }
        result |= UInt64(b & 0x7f) << shift
        if b & 0x80 == 0 { return result }
        shift += 7
        if shift > 63 { throw DecodeError.corrupt("varint too long") }
    }
}

@inline(__always)
func readZigZagLEB128(_ buf: UnsafeRawBufferPointer, _ pos: inout Int) throws -> Int64 {
    let v = try readULEB128(buf, &pos)
    return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
}

@inline(__always)
func rebased(_ buf: UnsafeRawBufferPointer, _ start: Int, _ count: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: buf[start..<(start + count)])
}

/// Converts IEEE half-precision bits to Double.
func halfToDouble(_ h: UInt16) -> Double {
    let sign: Double = (h & 0x8000) != 0 ? -1 : 1
    let exp = Int((h >> 10) & 0x1f)
    let frac = Double(h & 0x3ff)
    if exp == 0 { return sign * frac * 0x1p-24 }
    if exp == 31 { return frac == 0 ? sign * .infinity : .nan }
    return sign * (1 + frac / 1024) * Double(sign: .plus, exponent: exp - 15, significand: 1)
}
