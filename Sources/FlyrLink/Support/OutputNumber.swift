/// Number formatting for outputs: fixed decimals with trailing zeros trimmed, never exponent
/// notation or "-0", so the same value prints the same bytes on every run and platform.
enum OutputNumber {
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        append(value, decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }


    static func append(_ value: Double, _ decimals: Int, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        let scale = GeoJSONScanner.exactPowerOfTen(decimals)
        var scaled = (abs(value) * scale).rounded()
        if scaled >= 9.0e15 {
            // Beyond exact integers: fall back to Swift's shortest representation.
            out.append(contentsOf: String(value).utf8)
            return
        }
        if scaled == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits = UInt64(scaled)
        scaled = 0
        // Digits are produced last first, from the end of a stack buffer (no allocation per
        // number), then appended in one go.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buf in
            var at = buf.count
            var frac = decimals
            // Trailing zeros of the fraction are not printed.
            while frac > 0 && digits % 10 == 0 {
                digits /= 10
                frac -= 1
            }
            var remainingFrac = frac
            repeat {
                at -= 1
                buf[at] = UInt8(ascii: "0") + UInt8(digits % 10)
                digits /= 10
                remainingFrac -= 1
                if remainingFrac == 0 {
                    at -= 1
                    buf[at] = UInt8(ascii: ".")
                }
            } while digits > 0 || remainingFrac >= 0
            if buf[at] == UInt8(ascii: ".") {
                at -= 1
                buf[at] = UInt8(ascii: "0")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[at...]))
        }
    }
}
