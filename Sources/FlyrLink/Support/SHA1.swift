internal import CCrypto

/// SHA-1, needed only for RFC 4122 name-based (version 5) UUIDs. Not for security. libcrypto's
/// one-shot SHA1: a run makes one per link and unit, over a million of them.
enum SHA1 {
    static func hash(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 20)
        out.withUnsafeMutableBufferPointer { o in
            _ = CCrypto.SHA1(message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, o.baseAddress)
        }
        return out
    }

    static func hash(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { hash($0) }
    }
}
