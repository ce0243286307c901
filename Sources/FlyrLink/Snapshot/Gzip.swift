internal import CZlib
import Foundation

/// gzip files through zlib: deflate with windowBits 15+16 writes the gzip wrapper itself, with
/// mtime 0 and no file name, so the same bytes in give the same .gz out (one gzip member).
enum Gzip {
    /// Level 1, not zlib's default 6: a version's GeoJSON deflates in 40% of the time, for 25% more
    /// bytes in its .gz files (6% more in the whole version; benchmarks/README.md, "Snapshot against run").
    static let level: Int32 = 1

    /// Compresses the file at `source` into `destination` (created or truncated) and syncs it to disk.
    static func compressFile(_ source: String, to destination: String, level: Int32 = level) throws(OutputError) {
        let file: MappedFile
        do { file = try MappedFile(path: source) } catch { throw OutputError(error.message) }
        try withExtendedLifetime(file) { () throws(OutputError) in try compress(file.bytes, to: destination, level: level, name: source) }
    }

    /// Compresses `bytes` into the file `destination` (created or truncated), fed to zlib in 1 MiB
    /// blocks, and syncs it to disk; `name` says what the bytes are in an error.
    static func compress(_ bytes: UnsafeRawBufferPointer, to destination: String, level: Int32 = level,
                         name: String) throws(OutputError) {
        let output: ByteWriter
        do { output = try ByteWriter(path: destination) } catch { throw error as? OutputError ?? OutputError("cannot create \(destination)") }
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw OutputError("zlib: cannot start compressing \(name)")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: 1 << 18)
        let blockSize = 1 << 20
        var at = 0
        // Each block in (the last one empty), deflated until zlib has taken all of it.
        while true {
            let n = min(blockSize, bytes.count - at)
            let flush = n == 0 ? Z_FINISH : Z_NO_FLUSH
            var status = Z_OK
            stream.next_in = n == 0 ? nil : UnsafeMutablePointer(mutating: (bytes.baseAddress! + at).assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(n)
            repeat {
                let produced: Int
                (status, produced) = step(&stream, into: &out) { deflate($0, flush) }
                if produced > 0 { out.withUnsafeBytes { output.write(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<produced])) } }
            } while stream.avail_out == 0 && status != Z_STREAM_END
            stream.next_in = nil
            if status == Z_STREAM_ERROR { throw OutputError("zlib: compressing \(name) failed") }
            if flush == Z_FINISH {
                guard status == Z_STREAM_END else { throw OutputError("zlib: compressing \(name) failed (\(status))") }
                break
            }
            at += n
        }
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
