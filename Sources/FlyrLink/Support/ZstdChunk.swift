internal import CZstd

/// Bytes compressed in memory (zstd, level 1: compressing is on the run's path, and these planes and
/// records compress well at it): one chunk of `CompressedRows` or `CompressedFootprints`. The owner
/// frees it (`free()`) when it is done with it.
package struct ZstdChunk {
    let compressed: UnsafeMutableRawBufferPointer
    package let rawSize: Int

    /// `source` compressed into a buffer just its compressed size.
    package init(compressing source: UnsafeRawBufferPointer) {
        let bound = ZSTD_compressBound(source.count)
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: bound, alignment: 1)
        defer { scratch.deallocate() }
        let size = ZSTD_compress(scratch.baseAddress, bound, source.baseAddress, source.count, 1)
        precondition(ZSTD_isError(size) == 0, "zstd: \(String(cString: ZSTD_getErrorName(size)))")
        compressed = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        compressed.copyMemory(from: UnsafeRawBufferPointer(rebasing: scratch[0..<size]))
        rawSize = source.count
    }

    /// The bytes decompressed, into `raw` (a buffer to reuse, resized to them); `what` names the
    /// chunk if it does not unpack (memory of this process, or a tile's pack whose SHA-256 its plan
    /// vouches for: a failure is a defect, not input).
    package func unpack(into raw: inout [UInt8], what: String) {
        raw.removeAll(keepingCapacity: true)
        raw.append(contentsOf: repeatElement(0, count: rawSize))
        let size = raw.withUnsafeMutableBytes { out in
            ZSTD_decompress(out.baseAddress, out.count, compressed.baseAddress, compressed.count)
        }
        precondition(ZSTD_isError(size) == 0 && size == rawSize, "zstd: \(what) did not unpack to its size")
    }

    package func free() { compressed.deallocate() }

    /// The chunk as bytes: its raw size and its compressed size, then the compressed bytes. A
    /// tile's pack (`TilePack`) carries compressed chunks to another process.
    func append(to bytes: inout [UInt8]) {
        // (The reader takes sizes up to 2³¹ - 1: a chunk of 65,536 rows is far smaller.)
        precondition(rawSize <= Int(Int32.max) && compressed.count <= Int(Int32.max), "a chunk larger than 2 GiB")
        Self.append(size: rawSize, to: &bytes)
        Self.append(size: compressed.count, to: &bytes)
        bytes.append(contentsOf: UnsafeRawBufferPointer(compressed))
    }

    /// `count` items' chunks as bytes: the count, then each chunk.
    package static func append(count: Int, _ chunks: [ZstdChunk], to bytes: inout [UInt8]) {
        append(size: count, to: &bytes)
        for chunk in chunks { chunk.append(to: &bytes) }
    }

    /// What `append(count:_:to:)` wrote at `offset` (moved past it), `perChunk` items a chunk;
    /// nil when the bytes end first (the chunks read are freed).
    package static func read(counted bytes: UnsafeRawBufferPointer, perChunk: Int, at offset: inout Int) -> (count: Int, chunks: [ZstdChunk])? {
        guard let count = size(in: bytes, at: offset) else { return nil }
        offset += 8
        var chunks: [ZstdChunk] = []
        for _ in 0..<(count + perChunk - 1) / perChunk {
            guard let chunk = ZstdChunk(bytes: bytes, at: &offset) else { chunks.forEach { $0.free() }; return nil }
            chunks.append(chunk)
        }
        return (count, chunks)
    }

    /// The chunk `append(to:)` wrote at `offset` in `bytes` (the offset moved past it); nil when
    /// the bytes end before it does.
    init?(bytes: UnsafeRawBufferPointer, at offset: inout Int) {
        guard let raw = Self.size(in: bytes, at: offset), let count = Self.size(in: bytes, at: offset + 8),
              offset + 16 + count <= bytes.count else { return nil }
        compressed = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        compressed.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset + 16..<offset + 16 + count]))
        rawSize = raw
        offset += 16 + count
    }

    /// A size as the framing writes it: 64-bit, little-endian.
    private static func append(size: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt64(size).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The size at `at`; nil past the end, or above 2³¹ - 1.
    private static func size(in bytes: UnsafeRawBufferPointer, at: Int) -> Int? {
        guard at >= 0, at + 8 <= bytes.count else { return nil }
        let v = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        return v <= UInt64(Int32.max) ? Int(v) : nil
    }
}
