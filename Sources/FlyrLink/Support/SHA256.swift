import Foundation

/// SHA-256 (FIPS 180-4) for input fingerprints and, later, snapshot manifests.
struct SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
    private var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {}

    mutating func update(_ data: UnsafeRawBufferPointer) {
        length &+= UInt64(data.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, data.count)
            pending += data[0..<take]
            offset = take
            if pending.count == 64 {
                let block = pending
                block.withUnsafeBytes { compress($0.baseAddress!) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while offset + 64 <= data.count {
            compress(data.baseAddress! + offset)
            offset += 64
        }
        if offset < data.count { pending += data[offset...] }
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for i in (0..<8).reversed() { tail.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        let saved = length
        update(tail)
        length = saved
        return h.flatMap { [UInt8($0 >> 24), UInt8(truncatingIfNeeded: $0 >> 16), UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] }
    }

    private mutating func compress(_ p: UnsafeRawPointer) {
        // The schedule lives on the stack and the constants are read unchecked: this is the hot loop
        // of hashing large input files.
        var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            SHA256.k.withUnsafeBufferPointer { k in
                for i in 0..<16 { w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)) }
                for i in 16..<64 {
                    let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                    let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                    w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                }
                for i in 0..<64 {
                    let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
                }
            }
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }



    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func hash(_ bytes: [UInt8]) -> String {
        var s = SHA256()
        s.update(bytes)
        return hex(s.finish())
    }

    /// Hex digest of an input file, remembered for the process by path, size and modification time:
    /// a snapshot fingerprints its inputs and the run's report does again, and large inputs take
    /// seconds to hash.
    static func fingerprint(_ path: String) -> String? {
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let key = "\(path)|\((attrs?[.size] as? Int) ?? -1)|\((attrs?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        if let known = FingerprintMemo.shared.get(key) { return known }
        let digest = hashFile(path)
        if let digest { FingerprintMemo.shared.set(key, digest) }
        return digest
    }

    /// Hex digest of a file's bytes, read in 1 MiB blocks; nil when it cannot be read.
    static func hashFile(_ path: String) -> String? {
        guard let fh = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? fh.close() }
        var s = SHA256()
        while true {
            guard let data = try? fh.read(upToCount: 1 << 20), !data.isEmpty else { break }
            data.withUnsafeBytes { s.update($0) }
        }
        return hex(s.finish())
    }
}

@inline(__always) private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

/// Process-wide memo of input fingerprints.
final class FingerprintMemo: @unchecked Sendable {
    static let shared = FingerprintMemo()
    private var digests: [String: String] = [:]
    private let lock = NSLock()

    func get(_ key: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return digests[key]
    }

    func set(_ key: String, _ digest: String) {
        lock.lock()
        defer { lock.unlock() }
        digests[key] = digest
    }
}
