import Foundation

/// A version's feature digests (`digests.bin`), so the next `diff.json` need not gunzip and scan its
/// layers; a version without a readable file is scanned instead.
///
/// Layout, little-endian: "FLYRDIG1"; then the buildings, then the addresses, each a UInt32 count
/// and, by id ascending, a UInt32 id length, the id's UTF-8 bytes and the digest (`FeatureDigest`, 16 bytes).
enum DigestFile {
    static let name = "digests.bin"
    private static let magic = Array("FLYRDIG1".utf8)
    private static let digestSize = FeatureDigest.size

    static func write(buildings: FeatureDigests.Table, addresses: FeatureDigests.Table, to dir: URL) throws(OutputError) {
        var bytes = magic
        for layer in [buildings, addresses] {
            append(UInt32(layer.count), to: &bytes)
            for id in layer.keys.sorted() {
                let utf8 = Array(id.utf8)
                append(UInt32(utf8.count), to: &bytes)
                bytes += utf8
                bytes += layer[id]!.bytes
            }
        }
        try SnapshotFiles.write(Data(bytes), to: dir.appendingPathComponent(name).path)
    }

    /// The buildings' and the addresses' digests, or nil when the file is missing or not whole.
    static func read(_ dir: URL) -> (buildings: FeatureDigests.Table, addresses: FeatureDigests.Table)? {
        guard let file = try? MappedFile(path: dir.appendingPathComponent(name).path) else { return nil }
        return withExtendedLifetime(file) { () -> (buildings: FeatureDigests.Table, addresses: FeatureDigests.Table)? in
            let b = file.bytes
            guard b.count >= magic.count, b.prefix(magic.count).elementsEqual(magic) else { return nil }
            var at = magic.count
            func uint32() -> Int? {
                guard at + 4 <= b.count else { return nil }
                defer { at += 4 }
                return Int(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
            }
            func layer() -> FeatureDigests.Table? {
                guard let count = uint32() else { return nil }
                var out: FeatureDigests.Table = [:]
                out.reserveCapacity(count)
                for _ in 0..<count {
                    guard let length = uint32(), at + length + digestSize <= b.count else { return nil }
                    let id = String(decoding: UnsafeRawBufferPointer(rebasing: b[at..<at + length]), as: UTF8.self)
                    out[id] = FeatureDigest(UnsafeRawBufferPointer(rebasing: b[at + length..<at + length + digestSize]))
                    at += length + digestSize
                }
                return out
            }
            guard let buildings = layer(), let addresses = layer(), at == b.count else { return nil }
            return (buildings, addresses)
        }
    }

    private static func append(_ v: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { bytes += $0 }
    }
}
