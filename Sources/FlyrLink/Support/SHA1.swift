/// SHA-1, needed only for RFC 4122 name-based (version 5) UUIDs. Not for security.
/// Hashes a whole message at once: UUID names are short and made in one piece.
enum SHA1 {
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        // Padding: 0x80, zeros to 56 mod 64, then the bit length big-endian.
        var padded = message
        padded.reserveCapacity(message.count + 72)
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bits = UInt64(message.count) &* 8
        for i in (0..<8).reversed() { padded.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            padded.withUnsafeBytes { bytes in
                for block in stride(from: 0, to: bytes.count, by: 64) {
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: block + i * 4, as: UInt32.self))
                    }
                    for i in 16..<80 {
                        let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
                        w[i] = (x << 1) | (x >> 31)
                    }
                    var (a, b, c, d, e) = h
                    for i in 0..<80 {
                        let f: UInt32, k: UInt32
                        switch i {
                        case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                        case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                        case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                        default: f = b ^ c ^ d; k = 0xCA62_C1D6
                        }
                        let t = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ w[i]
                        e = d
                        d = c
                        c = (b << 30) | (b >> 2)
                        b = a
                        a = t
                    }
                    h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e)
                }
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(20)
        for word in [h.0, h.1, h.2, h.3, h.4] {
            out += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return out
    }
}
