internal import CZlib
import Foundation

/// gzip files through zlib: deflate with windowBits 15+16 writes the gzip wrapper itself, with
/// mtime 0 and no file name, so the same bytes in give the same .gz out.
enum Gzip {
    /// Compresses the file at `source` into `destination` (created or truncated), in 1 MiB blocks,
    /// and syncs it to disk.
    static func compressFile(_ source: String, to destination: String, level: Int32 = 6) throws(OutputError) {
        guard FileManager.default.createFile(atPath: destination, contents: nil),
              let output = FileHandle(forWritingAtPath: destination) else { throw OutputError("cannot create \(destination)") }
        defer { try? output.close() }

        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw OutputError("zlib: cannot start compressing \(source)")
        }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: 1 << 18)
        // Each block in (the last one empty), deflated until zlib has taken all of it.
        try FileBlocks.forEach(source) { (block) throws(OutputError) in
            let flush = block.isEmpty ? Z_FINISH : Z_NO_FLUSH
            var status = Z_OK
            stream.next_in = UnsafeMutablePointer(mutating: block.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(block.count)
            repeat {
                let produced: Int
                (status, produced) = step(&stream, into: &out) { deflate($0, flush) }
                if produced > 0 { output.write(Data(out[0..<produced])) }
            } while stream.avail_out == 0 && status != Z_STREAM_END
            stream.next_in = nil
            if status == Z_STREAM_ERROR { throw OutputError("zlib: compressing \(source) failed") }
            if flush == Z_FINISH && status != Z_STREAM_END {
                throw OutputError("zlib: compressing \(source) failed (\(status))")
            }
        }
        do {
            try output.synchronize()
        } catch {
            throw OutputError("cannot write \(destination): \(error.localizedDescription)")
        }
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
