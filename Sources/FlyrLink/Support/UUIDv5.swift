/// RFC 4122 version-5 (SHA-1, name-based) UUIDs: the same name in the same namespace always
/// gives the same id, so ids survive re-runs and thread counts.
public enum UUIDv5 {
    /// flyr-link's own namespace (itself a v5 UUID of "flyr-link" in the RFC's URL namespace).
    public static let namespace: [UInt8] = parse("6ba7b811-9dad-11d1-80b4-00c04fd430c8").map { ns in
        make(namespaceBytes: ns, name: "https://flyr-link/ids")
    }!

    public static func make(name: String, namespace ns: [UInt8] = namespace) -> String {
        format(make(namespaceBytes: ns, name: name))
    }

    /// A name made of parts, joined with a separator that cannot occur in them ambiguously.
    /// Built as bytes directly (namespace, then "count:part|count:part..."): one buffer per id.
    public static func make(parts: [String], namespace ns: [UInt8] = namespace) -> String {
        var message = ns
        message.reserveCapacity(ns.count + parts.reduce(0) { $0 + $1.utf8.count + 8 })
        for (i, part) in parts.enumerated() {
            if i > 0 { message.append(UInt8(ascii: "|")) }
            message.append(contentsOf: String(part.utf8.count).utf8)
            message.append(UInt8(ascii: ":"))
            message.append(contentsOf: part.utf8)
        }
        // Digest and text made in place: an id costs the message and the string, nothing else.
        return message.withUnsafeBytes { m in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA1.digestLength) { digest in
                SHA1.hash(m, into: digest.baseAddress!)
                digest[6] = (digest[6] & 0x0F) | 0x50
                digest[8] = (digest[8] & 0x3F) | 0x80
                return format(UnsafeBufferPointer(rebasing: digest[0..<16]))
            }
        }
    }

    /// `make(parts: [p0, p1, p2, p3])` appended as text to `out`: the name built on the stack and
    /// hashed there, the hex written straight into `out` (no parts array, message array or id
    /// string; a run writes one per link). Four parts, the link id's shape; plain strings, so the
    /// compiler sees concrete types (a generic parameter pack cost runtime metadata look-ups).
    static func append(_ p0: String, _ p1: String, _ p2: String, _ p3: String, to out: inout [UInt8]) {
        let length = namespace.count + p0.utf8.count + p1.utf8.count + p2.utf8.count + p3.utf8.count + 4 * 22
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { message in
            var n = 0
            for b in namespace { message[n] = b; n += 1 }
            func add(_ part: String, separated: Bool) {
                if separated { message[n] = UInt8(ascii: "|"); n += 1 }
                n += writeDecimal(part.utf8.count, into: message.baseAddress! + n)
                message[n] = UInt8(ascii: ":"); n += 1
                var text = part
                text.withUTF8 { src in
                    (message.baseAddress! + n).update(from: src.baseAddress!, count: src.count)
                    n += src.count
                }
            }
            add(p0, separated: false); add(p1, separated: true); add(p2, separated: true); add(p3, separated: true)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA1.digestLength) { digest in
                SHA1.hash(UnsafeRawBufferPointer(start: message.baseAddress!, count: n), into: digest.baseAddress!)
                digest[6] = (digest[6] & 0x0F) | 0x50
                digest[8] = (digest[8] & 0x3F) | 0x80
                appendFormatted(UnsafeBufferPointer(rebasing: digest[0..<16]), to: &out)
            }
        }
    }

    /// A non-negative integer's decimal digits at `target`; their count.
    private static func writeDecimal(_ value: Int, into target: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1, v = value
        while v >= 10 { v /= 10; digits += 1 }
        v = value
        for k in stride(from: digits - 1, through: 0, by: -1) {
            target[k] = UInt8(ascii: "0") + UInt8(v % 10)
            v /= 10
        }
        return digits
    }

    /// The usual text form of 16 bytes appended to `out`.
    private static func appendFormatted(_ b: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hex.utf8Start[Int(byte >> 4)])
            out.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }

    static func make(namespaceBytes ns: [UInt8], name: String) -> [UInt8] {
        versioned(SHA1.hash(ns + Array(name.utf8)))
    }

    /// The first 16 bytes of the digest with the version (5) and variant bits set.
    private static func versioned(_ digest: [UInt8]) -> [UInt8] {
        var d = Array(digest.prefix(16))
        d[6] = (d[6] & 0x0F) | 0x50
        d[8] = (d[8] & 0x3F) | 0x80
        return d
    }

    static func format(_ b: [UInt8]) -> String {
        b.withUnsafeBufferPointer { format($0) }
    }

    static func format(_ b: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 2 * b.count + 4) { out in
            let hex: StaticString = "0123456789abcdef"
            var n = 0
            for (i, byte) in b.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 { out[n] = UInt8(ascii: "-"); n += 1 }
                out[n] = hex.utf8Start[Int(byte >> 4)]
                out[n + 1] = hex.utf8Start[Int(byte & 0x0F)]
                n += 2
            }
            return n
        }
    }

    /// The 16 bytes of a UUID string, or nil when it is not one.
    public static func parse(_ s: String) -> [UInt8]? {
        let hexChars = s.lowercased().filter { $0 != "-" }
        guard s.count == 36, hexChars.count == 32 else { return nil }
        let dashes = s.enumerated().filter { $0.element == "-" }.map(\.offset)
        guard dashes == [8, 13, 18, 23] else { return nil }
        var bytes: [UInt8] = []
        var iter = hexChars.makeIterator()
        while let hi = iter.next(), let lo = iter.next() {
            guard let h = hi.hexDigitValue, let l = lo.hexDigitValue else { return nil }
            bytes.append(UInt8(h << 4 | l))
        }
        return bytes.count == 16 ? bytes : nil
    }

    public static func isValid(_ s: String) -> Bool { parse(s) != nil }
}

extension UUIDv5 {
    /// 16 raw bytes (a Parquet UUID column) as the usual text form; nil for another length.
    static func format16(_ bytes: [UInt8]) -> String? {
        bytes.count == 16 ? format(bytes) : nil
    }
}
