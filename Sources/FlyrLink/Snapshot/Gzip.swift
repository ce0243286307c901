internal import CDeflate
internal import CZlib
import Foundation

/// gzip files: written by libdeflate, read by zlib (windowBits 15+16: the gzip wrapper). One gzip
/// member with mtime 0 and no file name, so the same bytes in give the same .gz out.
enum Gzip {
    /// Level 1: a fifth of zlib level 6's time for slightly more bytes (benchmarks/README.md,
    /// "Snapshot against run").
    static let level: Int32 = 1

    /// Compresses the file at `source` into `destination` (created or truncated) and syncs it to disk.
    static func compressFile(_ source: String, to destination: String, level: Int32 = level) throws(OutputError) {
        let file: MappedFile
        do { file = try MappedFile(path: source) } catch { throw OutputError(error.message) }
        try withExtendedLifetime(file) { () throws(OutputError) in try compress(file.bytes, to: destination, level: level, name: source) }
    }

    /// Compresses `bytes` into the file `destination` (created or truncated) and syncs it to disk;
    /// `name` says what the bytes are in an error. libdeflate, whole buffer to whole buffer (the
    /// file is mapped): about twice zlib's speed at a level, and smaller output.
    static func compress(_ bytes: UnsafeRawBufferPointer, to destination: String, level: Int32 = level,
                         name: String) throws(OutputError) {
        guard let compressor = libdeflate_alloc_compressor(level) else { throw OutputError("libdeflate: cannot start compressing \(name)") }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        let out = UnsafeMutableRawBufferPointer.allocate(byteCount: bound, alignment: 16)
        defer { out.deallocate() }
        let n = libdeflate_gzip_compress(compressor, bytes.baseAddress, bytes.count, out.baseAddress, bound)
        guard n > 0 else { throw OutputError("libdeflate: compressing \(name) failed") }
        let output: ByteWriter
        do { output = try ByteWriter(path: destination) } catch { throw error as? OutputError ?? OutputError("cannot create \(destination)") }
        output.write(bytes: UnsafeRawBufferPointer(rebasing: out[0..<n]))
        do { try output.close() } catch { throw error as? OutputError ?? OutputError("cannot write \(destination)") }
    }

    /// The decompressed bytes of a gzip file.
    static func decompressFile(_ path: String) throws(OutputError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw OutputError("cannot read \(path)") }
        return try decompress([UInt8](data), name: path)
    }

    static func decompress(_ input: [UInt8], name: String = "data") throws(OutputError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw OutputError("zlib: cannot start decompressing \(name)")
        }
        defer { inflateEnd(&stream) }
        var result: [UInt8] = []
        // The trailer's size (mod 2^32; deflate expands at most 1032×): the text grows in place, not by copies.
        if input.count >= 18 {
            let size = input.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
            result.reserveCapacity(min(size, input.count * 1032))
        }
        var out = [UInt8](repeating: 0, count: 1 << 18)
        var bytes = input
        var status = Z_OK
        bytes.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(inBuf.count)
            repeat {
                let produced: Int
                (status, produced) = step(&stream, into: &out) { inflate($0, Z_NO_FLUSH) }
                result += out[0..<produced]
            } while status == Z_OK
        }
        guard status == Z_STREAM_END else { throw OutputError("\(name) is not a complete gzip stream") }
        return result
    }

    /// One call of `code` (deflate or inflate) writing into all of `out`: its status, and how many
    /// bytes of `out` it filled.
    private static func step(_ stream: inout z_stream, into out: inout [UInt8],
                             _ code: (UnsafeMutablePointer<z_stream>) -> Int32) -> (status: Int32, produced: Int) {
        let status = out.withUnsafeMutableBufferPointer { outBuf in
            stream.next_out = outBuf.baseAddress
            stream.avail_out = uInt(outBuf.count)
            return code(&stream)
        }
        return (status, out.count - Int(stream.avail_out))
    }
}
