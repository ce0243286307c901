import Foundation

/// A byte-level JSON scanner over a memory-mapped GeoJSON file: strings, numbers kept as their
/// literal text, skipping of values it is not asked for. Errors name the byte offset.
struct GeoJSONScanner {
    struct Failure: Error, CustomStringConvertible {
        let offset: Int
        let what: String
        var description: String { "invalid JSON at byte \(offset): \(what)" }
    }

    let bytes: UnsafeRawBufferPointer
    var i = 0
    /// With a mapped file: how far its pages have been handed back (see `releaseConsumed`).
    private var released = 0
    private let releasesPages: Bool

    /// `mapped`: the bytes are a private file mapping whose pages may be dropped once read.
    init(_ bytes: UnsafeRawBufferPointer, mapped: Bool = false) {
        self.bytes = bytes
        releasesPages = mapped
    }

    /// Drops the mapped file's pages behind the read position once 16 MB have been read past the
    /// last release: a feature is never read twice, and a multi-gigabyte GeoJSON file would
    /// otherwise stay resident (and count in the process's memory) until the end of the read.
    mutating func releaseConsumed() {
        let step = 16 << 20
        guard releasesPages, i - released >= step, let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + released + page - 1) / page * page
        let end = (Int(bitPattern: base) + i - 4096) / page * page  // keep the current feature's page
        if end > start { madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_DONTNEED) }
        released = i - 4096
    }

    var atEnd: Bool { i >= bytes.count }

    func fail(_ what: String) -> Failure { Failure(offset: i, what: what) }

    mutating func skipSpace() {
        while i < bytes.count {
            let c = bytes[i]
            // JSON whitespace, plus the record separator of GeoJSON text sequences (RFC 8142).
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 || c == 0x1E { i += 1 } else { return }
        }
    }

    mutating func peek() throws(Failure) -> UInt8 {
        skipSpace()
        guard i < bytes.count else { throw fail("unexpected end of file") }
        return bytes[i]
    }

    mutating func expect(_ c: UInt8) throws(Failure) {
        guard try peek() == c else { throw fail("expected '\(Character(UnicodeScalar(c)))'") }
        i += 1
    }

    /// After a member or element: true when another follows (a comma was read), false at the closer.
    mutating func more(closer: UInt8) throws(Failure) -> Bool {
        let c = try peek()
        if c == UInt8(ascii: ",") { i += 1; return true }
        if c == closer { i += 1; return false }
        throw fail("expected ',' or '\(Character(UnicodeScalar(closer)))'")
    }

    /// Starts an object or array; false when it is empty (and already closed).
    mutating func open(_ opener: UInt8, _ closer: UInt8) throws(Failure) -> Bool {
        try expect(opener)
        if try peek() == closer { i += 1; return false }
        return true
    }

    mutating func string() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        let start = i
        var escaped = false
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\\") { escaped = true; i += 2; continue }
            if c == UInt8(ascii: "\"") {
                let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
                i += 1
                return escaped ? try unescape(raw, at: start) : String(decoding: raw, as: UTF8.self)
            }
            i += 1
        }
        throw fail("unterminated string")
    }

    /// Where a string's bytes are in the file when it has no escapes; nil (and the scanner back
    /// where it was) when it has some.
    mutating func plainStringSpan() throws(Failure) -> Range<Int>? {
        let mark = i
        try expect(UInt8(ascii: "\""))
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\\") { i = mark; return nil }
            if c == UInt8(ascii: "\"") {
                i += 1
                return start..<(i - 1)
            }
            i += 1
        }
        throw fail("unterminated string")
    }

    private func unescape(_ raw: UnsafeRawBufferPointer, at start: Int) throws(Failure) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var k = 0
        var pendingHigh: UInt32?
        while k < raw.count {
            let c = raw[k]
            guard c == UInt8(ascii: "\\"), k + 1 < raw.count else { out.append(c); k += 1; continue }
            let e = raw[k + 1]
            k += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard k + 4 <= raw.count, let v = UInt32(String(decoding: UnsafeRawBufferPointer(rebasing: raw[k..<(k + 4)]), as: UTF8.self), radix: 16) else {
                    throw Failure(offset: start + k, what: "bad \\u escape")
                }
                k += 4
                var scalar: UInt32 = v
                if (0xD800..<0xDC00).contains(v) { pendingHigh = v; continue }
                if (0xDC00..<0xE000).contains(v), let high = pendingHigh {
                    scalar = 0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00)
                }
                pendingHigh = nil
                out += Array(String(Character(UnicodeScalar(scalar) ?? "\u{FFFD}")).utf8)
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of a number token, after skipping white space.
    mutating func numberSpan() throws(Failure) -> Range<Int> {
        _ = try peek()
        let start = i
        while i < bytes.count {
            let c = bytes[i]
            if (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { i += 1 } else { break }
        }
        guard i > start else { throw fail("expected a number") }
        return start..<i
    }

    /// A number's literal text (as written in the file).
    mutating func numberText() throws(Failure) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[try numberSpan()]), as: UTF8.self)
    }

    mutating func number() throws(Failure) -> Double {
        let span = try numberSpan()
        if let d = GeoJSONScanner.exactDecimal(bytes, span) { return d }
        guard span.count < 64 else { throw fail("number too long") }
        // strtod needs a terminated buffer; numbers are short.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: span.count + 1) { buf in
            for (k, b) in span.enumerated() { buf[k] = CChar(bitPattern: bytes[b]) }
            buf[span.count] = 0
            return strtod(buf.baseAddress!, nil)
        }
    }

    /// Clinger's fast path: a plain decimal ("-12.345678", no exponent) of at most 15 digits is an
    /// exact integer over an exact power of ten, so one division gives the correctly rounded
    /// double, the same as strtod. Coordinates almost always are such decimals; nil for the rest.
    static func exactDecimal(_ bytes: UnsafeRawBufferPointer, _ span: Range<Int>) -> Double? {
        var k = span.lowerBound
        let negative = bytes[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        var mantissa: UInt64 = 0, digits = 0, scale = 0
        var fraction = false
        while k < span.upperBound {
            let c = bytes[k]
            if c >= 0x30 && c <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(c &- 0x30)
                digits += 1
                if fraction { scale += 1 }
            } else if c == UInt8(ascii: "."), !fraction {
                fraction = true
            } else {
                return nil
            }
            k += 1
        }
        guard digits > 0, digits <= 15, scale <= 22 else { return nil }
        let value = Double(mantissa) / exactPowerOfTen(scale)
        return negative ? -value : value
    }

    /// 10^e for e in 0...22, all exact doubles (a switch, not a table: a global array is checked for
    /// initialisation on every use, and this runs for every coordinate).
    @inline(__always)
    static func exactPowerOfTen(_ e: Int) -> Double {
        switch e {
        case 0: 1; case 1: 1e1; case 2: 1e2; case 3: 1e3; case 4: 1e4; case 5: 1e5; case 6: 1e6; case 7: 1e7
        case 8: 1e8; case 9: 1e9; case 10: 1e10; case 11: 1e11; case 12: 1e12; case 13: 1e13; case 14: 1e14
        case 15: 1e15; case 16: 1e16; case 17: 1e17; case 18: 1e18; case 19: 1e19; case 20: 1e20; case 21: 1e21
        default: 1e22
        }
    }

    /// A scalar as text (string, number literal, true/false), nil for null; nested values are skipped and give nil.
    mutating func scalarText() throws(Failure) -> String? {
        switch try peek() {
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "n"): try literal("null"); return nil
        case UInt8(ascii: "t"): try literal("true"); return "true"
        case UInt8(ascii: "f"): try literal("false"); return "false"
        case UInt8(ascii: "{"), UInt8(ascii: "["): try skipValue(); return nil
        default: return try numberText()
        }
    }

    mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail("unexpected end of file") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw fail("expected \(word)") }
        i += n
    }

    /// Skips an object or array by its brackets alone (strings skipped whole, nothing else checked):
    /// finds where a feature ends so that features can be parsed, strictly, in parallel.
    mutating func skipStructure() throws(Failure) {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") else {
            try skipValue()
            return
        }
        var depth = 0
        let n = bytes.count
        while i < n {
            // Most bytes of a feature are digits, commas, dots and minus signs, all below "[" and none
            // a quote: pass over them with one comparison each.
            while i < n, bytes[i] < UInt8(ascii: "["), bytes[i] != UInt8(ascii: "\"") { i += 1 }
            guard i < n else { break }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                while i < bytes.count {
                    let d = bytes[i]
                    if d == UInt8(ascii: "\\") { i += 2; continue }
                    if d == UInt8(ascii: "\"") { break }
                    i += 1
                }
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { i += 1; return }
            }
            i += 1
        }
        throw fail("unexpected end of file")
    }

    /// Skips any value, nesting included, checking it is well-formed JSON. Iterative: a value
    /// nested 100,000 arrays deep is skipped without a frame per level (no stack overflow).
    mutating func skipValue() throws(Failure) {
        var closers: [UInt8] = []  // the open containers' closing brackets; no allocation for a scalar
        while true {
            switch try peek() {
            case UInt8(ascii: "{"):
                i += 1
                if try peek() == UInt8(ascii: "}") {
                    i += 1
                } else {
                    closers.append(UInt8(ascii: "}"))
                    _ = try string()
                    try expect(UInt8(ascii: ":"))
                    continue
                }
            case UInt8(ascii: "["):
                i += 1
                if try peek() == UInt8(ascii: "]") {
                    i += 1
                } else {
                    closers.append(UInt8(ascii: "]"))
                    continue
                }
            default:
                _ = try scalarText()  // never a container here
            }
            // After a value: close the containers that end here, or go on to the next member.
            while let closer = closers.last {
                if try more(closer: closer) {
                    if closer == UInt8(ascii: "}") {
                        _ = try string()
                        try expect(UInt8(ascii: ":"))
                    }
                    break
                }
                closers.removeLast()
            }
            if closers.isEmpty { return }
        }
    }
}
