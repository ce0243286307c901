import Foundation

internal import CCrypto

/// SHA-256 (FIPS 180-4) for input fingerprints and snapshot manifests, computed by libcrypto
/// (SHA instructions where the CPU has them: inputs of hundreds of megabytes hash in a fraction of
/// a second). Streaming: `update` as often as needed, then `finish` once.
package struct SHA256: ~Copyable {
    private let context: OpaquePointer

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    mutating func update(_ data: UnsafeRawBufferPointer) {
        guard let base = data.baseAddress, data.count > 0 else { return }
        EVP_DigestUpdate(context, base, data.count)
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    consuming func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var n: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &n)
        return out
    }

    /// The digest of what was given so far, and the hash started over on the same context: many
    /// short messages (a snapshot's features) without a context made and freed for each.
    mutating func finishAndRestart() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { finishAndRestart(into: $0.baseAddress!) }
        return out
    }

    /// The 32 bytes into `out`, and the context started again for the next message.
    mutating func finishAndRestart(into out: UnsafeMutableRawPointer) {
        var n: UInt32 = 0
        EVP_DigestFinal_ex(context, out.assumingMemoryBound(to: UInt8.self), &n)
        // The digest the context already holds (naming EVP_sha256() again looks it up under a lock).
        EVP_DigestInit_ex2(context, nil, nil)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    package static func hash(_ bytes: [UInt8]) -> String {
        var s = SHA256()
        s.update(bytes)
        return hex(s.finish())
    }

    /// Hex digest of an input file, remembered for the process by path, size and modification time:
    /// a snapshot fingerprints its inputs and the run's report does again, and large inputs take
    /// seconds to hash.
    package static func fingerprint(_ path: String) -> String? {
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        // (By the canonical path: one file named two ways is hashed once.)
        let canonical = SourceSpec(location: path).resolved.location
        let key = "\(canonical)|\((attrs?[.size] as? Int) ?? -1)|\((attrs?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        return FingerprintMemo.shared.digest(key) { hashFile(path) }
    }

    /// Hex digest of a file's bytes, read in 1 MiB blocks; nil when it cannot be read.
    package static func hashFile(_ path: String) -> String? {
        var s = SHA256()
        do {
            try FileBlocks.forEach(path) { s.update($0) }
        } catch {
            return nil
        }
        return hex(s.finish())
    }
}

/// Process-wide memo of input fingerprints. A caller asking for a file whose hash another thread
/// is making waits for it rather than reading the file a second time (the report's background
/// hashing and a distributed run's input check ask at the same time).
final class FingerprintMemo: @unchecked Sendable {
    static let shared = FingerprintMemo()
    private var digests: [String: String] = [:]
    private var inFlight: Set<String> = []
    private let condition = NSCondition()

    func digest(_ key: String, _ make: () -> String?) -> String? {
        condition.lock()
        while inFlight.contains(key) { condition.wait() }
        if let known = digests[key] {
            condition.unlock()
            return known
        }
        inFlight.insert(key)
        condition.unlock()
        let made = make()
        condition.lock()
        inFlight.remove(key)
        if let made { digests[key] = made }
        condition.broadcast()
        condition.unlock()
        return made
    }
}
