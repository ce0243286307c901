import Foundation
import XCTest
@testable import GeoParquet

final class BadInputTests: XCTestCase {
    private var tempDir: URL!

    override func setUpWithError() throws {
        tempDir = FileManager.default.temporaryDirectory.appendingPathComponent("geoparquet-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tempDir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tempDir)
    }

    private func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = tempDir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func corpusBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Corpus.path(name))))
    }

    /// Opens and fully reads a file; returns normally or throws GeoParquetError.
    private func openAndRead(_ path: String) throws {
        let f = try GeoParquetFile(path: path)
        try f.read(columns: f.columns.filter(\.isReadable).map(\.path)) { b in
            for w in b.geometryWKB { if let w { _ = try? WKBGeometry(wkb: w) } }
        }
    }

    func testMissingFile() {
        assertThrowsGeoParquetError("missing file") { _ = try GeoParquetFile(path: "/nonexistent/x.parquet") }
        do { _ = try GeoParquetFile(path: "/nonexistent/x.parquet") } catch {
            XCTAssertEqual(error.kind, .io)
            XCTAssertTrue(error.description.contains("/nonexistent/x.parquet"))
        }
    }

    func testEmptyAndTinyFiles() throws {
        for n in [0, 1, 4, 8, 11, 12] {
            let p = try write([UInt8](repeating: 0x50, count: n), "tiny\(n).parquet")
            assertThrowsGeoParquetError("\(n)-byte file") { _ = try GeoParquetFile(path: p) }
        }
    }

    func testWrongMagic() throws {
        var b = try corpusBytes("gpt_compression-snappy.parquet")
        b[0] = UInt8(ascii: "X")
        let p1 = try write(b, "badhead.parquet")
        do { _ = try GeoParquetFile(path: p1); XCTFail() } catch {
            XCTAssertEqual(error.kind, .notParquet)
            XCTAssertTrue(error.description.contains("badhead.parquet"))
        }
        var t = try corpusBytes("gpt_compression-snappy.parquet")
        t[t.count - 1] = 0
        let p2 = try write(t, "badtail.parquet")
        assertThrowsGeoParquetError("bad trailing magic") { _ = try GeoParquetFile(path: p2) }
        let p3 = try write(Array("this is not parquet at all, just text".utf8), "text.parquet")
        assertThrowsGeoParquetError("text file") { _ = try GeoParquetFile(path: p3) }
    }

    /// Truncations at many lengths: each throws a GeoParquetError (never crashes).
    func testTruncatedFiles() throws {
        for name in ["gpt_compression-zstd.parquet", "ogc_v1.1.0_example_bbox_covering.parquet", "gpt_buildings-3d_delft_3dbag.parquet"] {
            let b = try corpusBytes(name)
            var lengths = Set([0, 3, 4, 5, 100, b.count / 3, b.count / 2, b.count - 100, b.count - 9, b.count - 8, b.count - 4, b.count - 1])
            for k in stride(from: 7, to: b.count, by: max(1, b.count / 25)) { lengths.insert(k) }
            for len in lengths.sorted() where len < b.count {
                let p = try write(Array(b[0..<len]), "trunc-\(len)-\(name)")
                assertThrowsGeoParquetError("\(name) truncated to \(len)") { try openAndRead(p) }
            }
        }
    }

    /// A file whose data pages are cut but whose footer is intact (footer re-appended): the
    /// column decoder must report truncation/corruption for that column.
    func testCorruptColumnData() throws {
        let b = try corpusBytes("gpt_compression-snappy.parquet")
        let footerLen = Int(b[b.count - 8]) | Int(b[b.count - 7]) << 8 | Int(b[b.count - 6]) << 16 | Int(b[b.count - 5]) << 24
        let footerStart = b.count - 8 - footerLen
        // Overwrite all data bytes (between the leading magic and the footer) with garbage.
        var g = b
        var rng = SplitMix64(seed: 42)
        for i in 4..<footerStart { g[i] = UInt8(truncatingIfNeeded: rng.next()) }
        let p = try write(g, "garbage-data.parquet")
        let f = try GeoParquetFile(path: p)
        do {
            try f.read(columns: ["col"]) { _ in }
            XCTFail("expected an error")
        } catch let e as GeoParquetError {
            XCTAssertNotNil(e.column)
            XCTAssertTrue(e.description.contains("garbage-data.parquet"), e.description)
        }
    }

    /// Random byte flips inside the footer: every outcome is success or GeoParquetError.
    func testFooterByteFlips() throws {
        for name in ["gpt_compression-gzip.parquet", "geoarrowrs_overture_buildings_100.parquet"] {
            let b = try corpusBytes(name)
            let footerLen = Int(b[b.count - 8]) | Int(b[b.count - 7]) << 8 | Int(b[b.count - 6]) << 16 | Int(b[b.count - 5]) << 24
            let footerStart = b.count - 8 - footerLen
            var rng = SplitMix64(seed: 7)
            var errors = 0
            for trial in 0..<300 {
                var m = b
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    let at = footerStart + Int(rng.next() % UInt64(footerLen))
                    m[at] ^= UInt8(truncatingIfNeeded: 1 + rng.next() % 255)
                }
                do {
                    let f = try GeoParquetFile(bytes: m, name: "\(name)#flip\(trial)")
                    try f.read(columns: f.columns.filter(\.isReadable).map(\.path)) { _ in }
                } catch let e as GeoParquetError {
                    errors += 1
                    XCTAssertTrue(e.file.contains(name))
                } catch {
                    XCTFail("unexpected error type \(error)")
                }
            }
            XCTAssertGreaterThan(errors, 0)
        }
    }

    func testDecompressedSizeMismatch() throws {
        // Page header says 10 bytes, zstd frame holds 8.
        let leaf = LeafColumn(index: 0, path: ["x"], dottedPath: "x", physicalType: .int64, typeLength: 0,
                              maxDefinitionLevel: 0, maxRepetitionLevel: 0, logicalType: nil, convertedType: nil)
        let raw: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        // Uncompressed codec with mismatching sizes.
        XCTAssertThrowsError(try raw.withUnsafeBytes { try Decompressor.decompress(codec: 0, input: $0, expectedSize: 10) })
        // Snappy literal of 8 bytes: preamble 8, tag (len-1)<<2 = 28.
        let snappy: [UInt8] = [8, 28] + raw
        XCTAssertEqual(try snappy.withUnsafeBytes { try Decompressor.decompress(codec: 1, input: $0, expectedSize: 8) }, raw)
        XCTAssertThrowsError(try snappy.withUnsafeBytes { try Decompressor.decompress(codec: 1, input: $0, expectedSize: 9) })
        XCTAssertThrowsError(try snappy.withUnsafeBytes { try Decompressor.decompress(codec: 1, input: $0, expectedSize: 7) })
        // Unknown codec.
        XCTAssertThrowsError(try raw.withUnsafeBytes { try Decompressor.decompress(codec: 3, input: $0, expectedSize: 8) }) { e in
            XCTAssertEqual((e as? DecodeError)?.kind, .unsupported)
        }
        _ = leaf
    }

    func testDictionaryIndexOutOfRange() throws {
        let dict = DenseValues.int64([10, 20])
        XCTAssertEqual(try dict.gather([1, 0]).count, 2)
        XCTAssertThrowsError(try dict.gather([2]))
    }

    func testUnknownEncodingInPage() throws {
        // Build a column chunk: PageHeader(type DATA_PAGE, sizes 8, data_page_header{num_values 1, encoding 42}) + 8 bytes.
        var header: [UInt8] = []
        header += [0x15, 0x00]            // field 1 i32: 0 (DATA_PAGE)
        header += [0x15, 0x10]            // field 2 i32: 8
        header += [0x15, 0x10]            // field 3 i32: 8
        header += [0x2c]                  // field 5 struct (delta 2)
        header += [0x15, 0x02]            //   field 1 num_values 1
        header += [0x15, 0x54]            //   field 2 encoding 42
        header += [0x15, 0x06, 0x15, 0x06] //  fields 3, 4: RLE
        header += [0x00, 0x00]            // end struct, end header
        let chunk = header + [1, 0, 0, 0, 0, 0, 0, 0]
        let leaf = LeafColumn(index: 0, path: ["x"], dottedPath: "x", physicalType: .int64, typeLength: 0,
                              maxDefinitionLevel: 0, maxRepetitionLevel: 0, logicalType: nil, convertedType: nil)
        let dec = ColumnChunkDecoder(leaf: leaf, kind: .int64, codec: 0)
        XCTAssertThrowsError(try dec.decode(chunk: chunk, numRows: 1)) { e in
            XCTAssertEqual((e as? DecodeError)?.kind, .unsupported)
            XCTAssertTrue((e as? DecodeError)?.message.contains("encoding #42") ?? false)
        }
        // Same page with PLAIN (0) decodes to 1.
        var ok = chunk
        ok[10] = 0x00   // the encoding value byte
        XCTAssertEqual(try dec.decode(chunk: ok, numRows: 1), .int64([1]))
        // Unknown codec in the page.
        XCTAssertThrowsError(try ColumnChunkDecoder(leaf: leaf, kind: .int64, codec: 99).decode(chunk: ok, numRows: 1))
    }

    func testDeepThriftNestingIsBounded() throws {
        // A struct field nested 10,000 levels deep must throw, not overflow the stack.
        var bytes = [UInt8](repeating: 0x1c, count: 10_000)   // field delta 1, type struct
        bytes += [UInt8](repeating: 0, count: 10_000)
        XCTAssertThrowsError(try FileMetaData.parse(bytes))
        // A list claiming more elements than bytes.
        XCTAssertThrowsError(try FileMetaData.parse([0x29, 0xfc, 0xff, 0xff, 0x0f]))
    }

    func testInvalidWKB() {
        XCTAssertThrowsError(try WKBGeometry(wkb: []))
        XCTAssertThrowsError(try WKBGeometry(wkb: [1, 3, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f]))   // polygon with 2^31 rings
        XCTAssertThrowsError(try WKBGeometry(wkb: [2, 0, 0, 0, 1]))
        var nested: [UInt8] = []
        for _ in 0..<100 { nested += [1, 7, 0, 0, 0, 1, 0, 0, 0] }   // GEOMETRYCOLLECTION nested 100 deep
        XCTAssertThrowsError(try WKBGeometry(wkb: nested))
        XCTAssertNil(WKBGeometry.envelope(of: nested))
    }
}

/// Deterministic PRNG for tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
