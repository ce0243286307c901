internal import CCrypto

/// SHA-1, needed only for RFC 4122 name-based (version 5) UUIDs. Not for security. libcrypto's
/// direct SHA-1 (SHA instructions where the CPU has them; no EVP lookup, which takes a lock per
/// call): a run makes one per link and unit, over a million of them.
enum SHA1 {
    static let digestLength = 20

    /// The digest of `message` into `digest` (20 bytes).
    static func hash(_ message: UnsafeRawBufferPointer, into digest: UnsafeMutablePointer<UInt8>) {
        var context = SHA_CTX()
        SHA1_Init(&context)
        if let base = message.baseAddress, message.count > 0 { SHA1_Update(&context, base, message.count) }
        SHA1_Final(digest, &context)
    }

    static func hash(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: digestLength) { out, n in
            hash(message, into: out.baseAddress!)
            n = digestLength
        }
    }

    static func hash(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { hash($0) }
    }
}
