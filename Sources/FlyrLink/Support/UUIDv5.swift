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

    /// A name made of parts, joined with a separator that cannot occur in them ambiguously
    /// (namespace, then "count:part|count:part...").
    public static func make(parts: [String], namespace ns: [UInt8] = namespace) -> String {
        makeBytes(parts: parts, namespace: ns).text
    }

    /// `make(parts:)` as 16 bytes, for ids a run holds by the hundred thousand and writes as text
    /// only when it writes them.
    static func makeBytes(parts: [String], namespace ns: [UInt8] = namespace) -> UUIDBytes {
        ns.withUnsafeBufferPointer { ns in
            withID(leading: ns, leadingHasParts: false, partBytes: parts.reduce(0) { $0 + $1.utf8.count }, partCount: parts.count,
                   name: { name in for part in parts { name.add(part) } }, UUIDBytes.init)
        }
    }

    /// The namespace and leading name parts written once into plain memory, for ids made by the million
    /// that share them: no shared String retained per id from both cores.
    struct NamePrefix {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>
    }

    /// `body` with the prefix of `parts` (valid only inside `body`).
    static func withPrefix<R>(_ parts: [String], namespace ns: [UInt8] = namespace, _ body: (NamePrefix) -> R) -> R {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: ns.count + parts.reduce(0) { $0 + $1.utf8.count } + 22 * parts.count)
        defer { buffer.deallocate() }
        var writer = NameWriter(base: buffer)
        for b in ns { writer.byte(b) }
        for part in parts { writer.add(part) }
        return body(NamePrefix(bytes: UnsafeBufferPointer(start: buffer, count: writer.count)))
    }

    /// `make(parts: prefix's parts + [p2, p3])` appended as text to `out`, from UTF-8 bytes in place:
    /// no parts array, no id string, no generic pack (runtime metadata look-ups per call).
    static func append(_ prefix: NamePrefix, utf8 p2: UnsafeBufferPointer<UInt8>, _ p3: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        withID(leading: prefix.bytes, leadingHasParts: true, partBytes: p2.count + p3.count, partCount: 2,
               name: { name in name.add(utf8: p2); name.add(utf8: p3) }) { id in
            writeText(id) { out.append($0) }
        }
    }

    /// The name (the leading bytes, then what `name` writes) on the stack, hashed there; the id's
    /// 16 bytes (version and variant set) handed to `body`.
    private static func withID<R>(leading: UnsafeBufferPointer<UInt8>, leadingHasParts: Bool, partBytes: Int, partCount: Int,
                                  name: (inout NameWriter) -> Void, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // Per part at most a separator, 20 length digits and a colon.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: leading.count + partBytes + 22 * partCount) { message in
            var writer = NameWriter(base: message.baseAddress!)
            if let start = leading.baseAddress { message.baseAddress!.initialize(from: start, count: leading.count) }
            writer.count = leading.count
            writer.first = !leadingHasParts
            name(&writer)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA1.digestLength) { digest in
                SHA1.hash(UnsafeRawBufferPointer(start: message.baseAddress!, count: writer.count), into: digest.baseAddress!)
                digest[6] = (digest[6] & 0x0F) | 0x50
                digest[8] = (digest[8] & 0x3F) | 0x80
                return body(UnsafeBufferPointer(rebasing: digest[0..<16]))
            }
        }
    }

    /// Writes a name's bytes into a buffer sized for them.
    private struct NameWriter {
        let base: UnsafeMutablePointer<UInt8>
        var count = 0
        var first = true

        mutating func byte(_ b: UInt8) { base[count] = b; count += 1 }

        /// "|" (but before the first), the part's UTF-8 length in decimal, ":", its bytes.
        mutating func add(_ part: String) {
            var text = part
            text.withUTF8 { add(utf8: $0) }
        }

        mutating func add(utf8 src: UnsafeBufferPointer<UInt8>) {
            if !first { byte(UInt8(ascii: "|")) }
            first = false
            for digit in String(src.count).utf8 { byte(digit) }
            byte(UInt8(ascii: ":"))
            if let bytes = src.baseAddress { (base + count).initialize(from: bytes, count: src.count) }
            count += src.count
        }
    }

    /// The usual text form of 16 bytes, byte by byte to `emit`.
    @inline(__always)
    fileprivate static func writeText(_ b: UnsafeBufferPointer<UInt8>, _ emit: (UInt8) -> Void) {
        let hex: StaticString = "0123456789abcdef"
        for (i, byte) in b.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { emit(UInt8(ascii: "-")) }
            emit(hex.utf8Start[Int(byte >> 4)])
            emit(hex.utf8Start[Int(byte & 0x0F)])
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
            var n = 0
            writeText(b) { out[n] = $0; n += 1 }
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

/// A UUID's 16 bytes as two big-endian integers, in place of a 36-character heap string (a run
/// keeps one per unit slice).
public struct UUIDBytes: Sendable, Hashable {
    let high: UInt64
    let low: UInt64

    /// The first 16 bytes of `b` (at least 16).
    init(_ b: UnsafeBufferPointer<UInt8>) {
        precondition(b.count >= 16, "a UUID is 16 bytes")
        var h: UInt64 = 0, l: UInt64 = 0
        for i in 0..<8 { h = h << 8 | UInt64(b[i]); l = l << 8 | UInt64(b[8 + i]) }
        high = h
        low = l
    }

    /// From the usual text form; nil when `text` is not a UUID.
    public init?(text: String) {
        guard let bytes = UUIDv5.parse(text) else { return nil }
        self = bytes.withUnsafeBufferPointer { UUIDBytes($0) }
    }

    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { b in
            for i in 0..<8 { b[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * i)); b[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * i)) }
            return body(UnsafeBufferPointer(b))
        }
    }

    /// The usual text form (lowercase hex, dashed).
    public var text: String { withBytes { UUIDv5.format($0) } }

    /// The text form appended to `out`, with no string made.
    func appendText(to out: inout [UInt8]) {
        withBytes { b in UUIDv5.writeText(b) { out.append($0) } }
    }
}
