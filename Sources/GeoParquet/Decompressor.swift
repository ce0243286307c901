import CBrotli
import CLZ4
import CSnappy
import CZlib
import CZstd

/// Page decompression for UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD, LZ4_RAW and LZ4 (Hadoop framing,
/// falling back to a raw LZ4 block). The output must be exactly `expectedSize` bytes.
enum Decompressor {
    /// Largest page we are willing to allocate.
    static let maxPageSize = 1 << 30

    static func decompress(codec: Int32, input: UnsafeRawBufferPointer, expectedSize: Int) throws -> [UInt8] {
        guard expectedSize >= 0, expectedSize <= maxPageSize else {
            throw DecodeError.corrupt("page claims \(expectedSize) uncompressed bytes")
        }
        if codec == ParquetCodec.uncompressed {
            guard input.count == expectedSize else {
                throw DecodeError.corrupt("uncompressed page has \(input.count) bytes, header says \(expectedSize)")
            }
            return [UInt8](input)
        }
        guard let src = input.baseAddress, input.count > 0 else {
            if expectedSize == 0 { return [] }
            throw DecodeError.corrupt("empty compressed page that should hold \(expectedSize) bytes")
        }
        let capacity = max(expectedSize, 1)
        var produced = 0
        let out = try [UInt8](unsafeUninitializedCapacity: capacity) { dst, initialized in
            guard let dstBase = dst.baseAddress else { throw DecodeError.corrupt("allocation failed") }
            switch codec {
            case ParquetCodec.snappy:
                produced = try snappy(src, input.count, dstBase, capacity)
            case ParquetCodec.gzip:
                produced = try gzip(src, input.count, dstBase, capacity)
            case ParquetCodec.zstd:
                let r = ZSTD_decompress(dstBase, capacity, src, input.count)
                if ZSTD_isError(r) != 0 {
                    let name = ZSTD_getErrorName(r).map { String(cString: $0) } ?? "error"
                    throw DecodeError.corrupt("ZSTD decompression failed: \(name)")
                }
                produced = r
            case ParquetCodec.brotli:
                var size = capacity
                let r = BrotliDecoderDecompress(input.count, src.assumingMemoryBound(to: UInt8.self), &size, dstBase)
                guard r == BROTLI_DECODER_RESULT_SUCCESS else {
                    throw DecodeError.corrupt("BROTLI decompression failed (or output larger than the \(expectedSize) bytes the header says)")
                }
                produced = size
            case ParquetCodec.lz4Raw:
                produced = try lz4Block(src, input.count, dstBase, capacity)
            case ParquetCodec.lz4:
                if let n = lz4Hadoop(src, input.count, dstBase, capacity) {
                    produced = n
                } else {
                    produced = try lz4Block(src, input.count, dstBase, capacity)
                }
            default:
                throw DecodeError.unsupported("compression codec \(ParquetCodec.name(codec)) is not supported")
            }
            initialized = min(produced, capacity)
        }
        guard produced == expectedSize else {
            throw DecodeError.corrupt("page decompressed (\(ParquetCodec.name(codec))) to \(produced) bytes, header says \(expectedSize)")
        }
        return out
    }

    private static func snappy(_ src: UnsafeRawPointer, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>, _ cap: Int) throws -> Int {
        let s = src.assumingMemoryBound(to: CChar.self)
        var length = 0
        guard snappy_uncompressed_length(s, n, &length) == SNAPPY_OK else {
            throw DecodeError.corrupt("SNAPPY data is corrupt")
        }
        guard length <= cap else {
            throw DecodeError.corrupt("SNAPPY page would decompress to \(length) bytes, more than the header says")
        }
        var outLength = cap
        let r = dst.withMemoryRebound(to: CChar.self, capacity: cap) { snappy_uncompress(s, n, $0, &outLength) }
        guard r == SNAPPY_OK else { throw DecodeError.corrupt("SNAPPY decompression failed") }
        return outLength
    }

    private static func gzip(_ src: UnsafeRawPointer, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>, _ cap: Int) throws -> Int {
        guard n <= Int(UInt32.max), cap <= Int(UInt32.max) else { throw DecodeError.unsupported("GZIP page too large") }
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw DecodeError.corrupt("zlib initialisation failed")
        }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: src.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(n)
        stream.next_out = dst
        stream.avail_out = uInt(cap)
        while true {
            let rc = inflate(&stream, Z_NO_FLUSH)
            if rc == Z_STREAM_END {
                // Concatenated gzip members.
                if stream.avail_in > 0, stream.avail_out > 0, stream.next_in.pointee == 0x1f {
                    guard inflateReset(&stream) == Z_OK else { throw DecodeError.corrupt("zlib reset failed") }
                    continue
                }
                break
            }
            if rc == Z_OK {
                if stream.avail_out == 0 {
                    throw DecodeError.corrupt("GZIP page decompresses to more than the header's size")
                }
                if stream.avail_in == 0 { throw DecodeError.truncated("GZIP stream truncated") }
                continue
            }
            throw DecodeError.corrupt("GZIP decompression failed (zlib error \(rc))")
        }
        return cap - Int(stream.avail_out)
    }

    private static func lz4Block(_ src: UnsafeRawPointer, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>, _ cap: Int) throws -> Int {
        guard n <= Int(Int32.max), cap <= Int(Int32.max) else { throw DecodeError.unsupported("LZ4 page too large") }
        let r = dst.withMemoryRebound(to: CChar.self, capacity: cap) {
            LZ4_decompress_safe(src.assumingMemoryBound(to: CChar.self), $0, Int32(n), Int32(cap))
        }
        guard r >= 0 else { throw DecodeError.corrupt("LZ4 decompression failed") }
        return Int(r)
    }

    /// Hadoop LZ4 framing: repeated [u32 BE uncompressed][u32 BE compressed][block].
    private static func lz4Hadoop(_ src: UnsafeRawPointer, _ n: Int, _ dst: UnsafeMutablePointer<UInt8>, _ cap: Int) -> Int? {
        let input = UnsafeRawBufferPointer(start: src, count: n)
        var inPos = 0, outPos = 0
        func be32(_ at: Int) -> Int {
            Int(input[at]) << 24 | Int(input[at + 1]) << 16 | Int(input[at + 2]) << 8 | Int(input[at + 3])
        }
        while n - inPos >= 8 {
            let rawSize = be32(inPos), compSize = be32(inPos + 4)
            inPos += 8
            guard compSize <= n - inPos, rawSize <= cap - outPos, compSize <= Int(Int32.max) else { return nil }
            let r = (dst + outPos).withMemoryRebound(to: CChar.self, capacity: rawSize) {
                LZ4_decompress_safe((src + inPos).assumingMemoryBound(to: CChar.self), $0, Int32(compSize), Int32(rawSize))
            }
            guard r == rawSize else { return nil }
            inPos += compSize
            outPos += rawSize
        }
        return inPos == n ? outPos : nil
    }
}
