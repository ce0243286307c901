import CZstd

/// One column chunk's single data page (v1): definition levels (RLE runs of the hybrid
/// encoding, bit width 1) and the non-null values PLAIN-encoded, zstd-compressed, after its
/// Thrift page header. Every column of the writer is optional or under an optional group, so
/// its maximum definition level is 1.
struct ParquetPageEncoder {
    /// zstd's level: its default, a balance the readers' users know.
    static let zstdLevel: Int32 = 3

    /// The chunk's bytes (header and compressed page) and its uncompressed size (header included).
    static func page(values: [UInt8], definedRows: [Bool]) throws -> (bytes: [UInt8], uncompressedSize: Int) {
        var body = definitionLevels(definedRows)
        body.append(contentsOf: values)
        let compressed = try zstd(body)
        var header = ThriftCompactEncoder()
        header.structValue { h in
            h.i32(1, 0)  // DATA_PAGE
            h.i32(2, Int32(body.count))
            h.i32(3, Int32(compressed.count))
            h.structure(5) { d in
                d.i32(1, Int32(definedRows.count))
                d.i32(2, 0)  // PLAIN
                d.i32(3, 3)  // RLE
                d.i32(4, 3)  // RLE
            }
        }
        return (header.bytes + compressed, header.bytes.count + body.count)
    }

    /// The levels as runs (`run length << 1`, then the value in one byte), after their 4-byte length.
    static func definitionLevels(_ defined: [Bool]) -> [UInt8] {
        var runs = ThriftCompactEncoder()  // (its varint is the hybrid encoding's ULEB128)
        var i = 0
        while i < defined.count {
            var j = i
            while j < defined.count && defined[j] == defined[i] { j += 1 }
            runs.varint(UInt64(j - i) << 1)
            runs.appendRaw([defined[i] ? 1 : 0])
            i = j
        }
        let n = UInt32(runs.bytes.count)
        return [UInt8(n & 0xff), UInt8(n >> 8 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 24)] + runs.bytes
    }

    static func zstd(_ input: [UInt8]) throws -> [UInt8] {
        let bound = ZSTD_compressBound(input.count)
        var out = [UInt8](repeating: 0, count: bound)
        let n = input.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in ZSTD_compress(dst.baseAddress, bound, src.baseAddress, input.count, zstdLevel) }
        }
        if ZSTD_isError(n) != 0 { throw GeoParquetWriteError("zstd compression failed: \(String(cString: ZSTD_getErrorName(n)))") }
        out.removeSubrange(n...)
        return out
    }
}

/// Why a GeoParquet file could not be written.
public struct GeoParquetWriteError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
