import Foundation

/// Field values as text exactly as GDAL's `OGR_F_GetFieldAsString` writes them, so a reader of
/// our own gives the same strings as reading the same file through GDAL.
enum OGRFieldText {
    /// A Real field without a width: C's `%.15g`. Values whose shortest round-trip form has at
    /// most 15 significant digits (nearly all data) are written from Swift's shortest form, which
    /// `%.15g` reproduces digit for digit; the rest go through `snprintf` itself.
    static func real(_ x: Double) -> String {
        // Subnormals carry fewer than 15 significant digits of precision: leave them to printf.
        guard x.isFinite, x.magnitude >= .leastNormalMagnitude || x == 0 else { return cFormat("%.15g", x) }
        if x == 0 { return x.sign == .minus ? "-0" : "0" }
        if let text = fewDecimals(x) { return text }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            guard let (count, exponent) = shortestDigits(x, into: digits), count <= 15 else { return cFormat("%.15g", x) }
            return gStyle(negative: x < 0, digits: UnsafeBufferPointer(rebasing: digits[0..<count]), exponent: exponent)
        }
    }

    /// Most data (2.9, 12.5, 1034.25): x written with the fewest decimals, up to 6, that read back
    /// as x. With at most 15 significant digits and %g's fixed layout, that is exactly `%.15g`
    /// (the only ≤15-digit decimal that close to x), found without Swift's shortest-digits search.
    private static func fewDecimals(_ x: Double) -> String? {
        guard x.magnitude < 1e15, x.magnitude >= 1e-4 else { return nil }
        var scale = 1.0
        for decimals in 0...6 {
            let m = (x * scale).rounded()
            if m / scale == x {
                guard m.magnitude < 1e15 else { return nil }
                return decimalText(Int64(m), decimals: decimals)
            }
            scale *= 10
        }
        return nil
    }

    /// m / 10^decimals in plain decimal notation.
    private static func decimalText(_ m: Int64, decimals: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
            var n = out.count
            var v = m.magnitude
            func put(_ c: UInt8) { n -= 1; out[n] = c }
            for _ in 0..<decimals { put(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 }
            if decimals > 0 { put(UInt8(ascii: ".")) }
            repeat { put(UInt8(ascii: "0") + UInt8(v % 10)); v /= 10 } while v > 0
            if m < 0 { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: out[n...]), as: UTF8.self)
        }
    }

    /// A Real field with a width: `%.<precision>f`, cut to the 79 characters of GDAL's buffer.
    static func fixed(_ x: Double, precision: Int) -> String {
        String(cFormat("%.\(precision)f", x).prefix(79))
    }

    /// A Float32 Real field without a width: GDAL's `OGRFormatFloat(…, -1, 'g')`: `%.8g`, fewer
    /// digits when that shows a float artefact (…99999… or …00000…) and still reads back the same,
    /// and ".0" on a number that would look like an integer.
    static func float32(_ f: Float) -> String {
        if f.isInfinite { return f > 0 ? "inf" : "-inf" }
        if f.isNaN { return "nan" }
        var text = cFormat("%.8g", Double(f))
        if hasArtefact(text) {
            for digits in [7, 6, 5] {
                let shorter = cFormat("%.\(digits)g", Double(f))
                if shorter.contains("."), !hasArtefact(shorter), Float(strtod(shorter, nil)) == f {
                    text = shorter
                    break
                }
            }
        }
        if !text.contains("."), !text.contains("e") { text += ".0" }
        return text
    }

    private static func hasArtefact(_ text: String) -> Bool {
        guard let dot = text.firstIndex(of: ".") else { return false }
        let tail = text[dot...]
        return tail.contains("99999") || tail.contains("00000")
    }

    /// A Binary field: upper-case hex (`CPLBinaryToHex`).
    static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let table = Array("0123456789ABCDEF".utf8)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            for (i, b) in bytes.enumerated() {
                out[2 * i] = table[Int(b >> 4)]
                out[2 * i + 1] = table[Int(b & 15)]
            }
            return bytes.count * 2
        }
    }

    /// A DateTime field: "YYYY/MM/DD HH:MM:SS", seconds with milliseconds when there are any,
    /// then the offset ("+00", "+0530", "-03") when the time zone is known.
    /// `tzFlag` is OGR's: 0 unknown, 100 UTC, 100 ± quarter hours.
    static func dateTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Float, tzFlag: Int) -> String {
        // OGR_GET_MS, in the same float arithmetic.
        let ms = Int(Double((second - Float(Int(second))) * 1000) + 0.5)
        var text = "\(pad(year, 4))/\(pad(month))/\(pad(day)) \(pad(hour)):\(pad(minute)):"
        text += ms != 0 ? cFormat("%06.3f", Double(second)) : pad(Int(second))
        if tzFlag > 1 {
            let offset = (tzFlag - 100) * 15
            let hours = offset / 60  // towards zero
            let minutes = abs(offset - hours * 60)
            text += (offset < 0 ? "-" : "+") + pad(abs(hours)) + (minutes == 0 ? "" : pad(minutes))
        }
        return text
    }

    /// `%0<width>d` for a non-negative number.
    private static func pad(_ n: Int, _ width: Int = 2) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// C's printf of one double (the "C" locale: '.' decimals, as GDAL's CPLsnprintf).
    static func cFormat(_ format: String, _ x: Double) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = withVaList([x]) { vsnprintf(&buffer, buffer.count, format, $0) }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The significant digits (no leading or trailing zeros) of Swift's shortest round-trip form of
    /// a finite non-zero `x`, and the decimal exponent of the first digit. nil if more than fit.
    private static func shortestDigits(_ x: Double, into digits: UnsafeMutableBufferPointer<UInt8>) -> (Int, Int)? {
        var count = 0
        var pointAt: Int?       // digits before the decimal point
        var exponent = 0
        var inExponent = false, exponentNegative = false
        var leadingZeros = true
        var droppedLeading = 0  // zeros after the point before the first significant digit
        for c in x.description.utf8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(c - UInt8(ascii: "0"))
                } else if leadingZeros && c == UInt8(ascii: "0") {
                    if pointAt != nil { droppedLeading += 1 }
                } else {
                    leadingZeros = false
                    guard count < digits.count else { return nil }
                    digits[count] = c
                    count += 1
                }
            case UInt8(ascii: "."):
                pointAt = count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            case UInt8(ascii: "-"):
                if inExponent { exponentNegative = true }
            default:
                break  // '+' of the exponent
            }
        }
        while count > 0 && digits[count - 1] == UInt8(ascii: "0") { count -= 1 }
        guard count > 0 else { return nil }
        // Integer digits before the point (leading zeros were never stored), minus zeros after it.
        let integerDigits = (pointAt ?? count) - droppedLeading
        let e = (exponentNegative ? -exponent : exponent) + integerDigits - 1
        return (count, e)
    }

    /// `%.15g` layout of digits d₁d₂… × 10^exponent (d₁ in the units place at exponent 0).
    private static func gStyle(negative: Bool, digits: UnsafeBufferPointer<UInt8>, exponent: Int) -> String {
        // At most 1 sign + 15 digits + "0." + 4 zeros or "e-308": well within 32 bytes.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
            var n = 0
            func put(_ c: UInt8) { out[n] = c; n += 1 }
            let zero = UInt8(ascii: "0")
            if negative { put(UInt8(ascii: "-")) }
            if exponent < -4 || exponent >= 15 {
                put(digits[0])
                if digits.count > 1 {
                    put(UInt8(ascii: "."))
                    for d in digits[1...] { put(d) }
                }
                put(UInt8(ascii: "e"))
                put(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                let e = abs(exponent)
                if e >= 100 { put(zero + UInt8(e / 100)) }
                put(zero + UInt8(e / 10 % 10))
                put(zero + UInt8(e % 10))
            } else if exponent >= 0 {
                for i in 0...exponent { put(i < digits.count ? digits[i] : zero) }
                if digits.count > exponent + 1 {
                    put(UInt8(ascii: "."))
                    for d in digits[(exponent + 1)...] { put(d) }
                }
            } else {
                put(zero)
                put(UInt8(ascii: "."))
                for _ in 0..<(-exponent - 1) { put(zero) }
                for d in digits { put(d) }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: out[0..<n]), as: UTF8.self)
        }
    }
}
