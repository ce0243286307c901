import Foundation
import XCTest
@testable import GeoParquet

final class MetadataTests: XCTestCase {
    func testGeoMetadataVariants() throws {
        let json = """
        {"version": "1.0.0-beta.1", "primary_column": "geom", "columns": {
          "geom": {"encoding": "WKB", "geometry_types": ["Polygon", "MultiPolygon Z"],
                   "crs": {"type": "ProjectedCRS", "name": "x \\"q\\"", "id": {"authority": "EPSG", "code": 2263}},
                   "bbox": [1, 2, 3, 4],
                   "covering": {"bbox": {"xmax": ["b", "xmax"], "xmin": ["b", "xmin"], "ymax": ["b", "ymax"], "ymin": ["b", "ymin"]}}},
          "unknown_crs": {"encoding": "WKB", "geometry_types": [], "crs": null, "bbox": [0, 1, 2, 3, 4, 5]},
          "default_crs": {"encoding": "WKB", "geometry_types": [], "edges": "spherical"},
          "native": {"encoding": "multipolygon", "geometry_types": []}
        }}
        """
        let m = try GeoMetadata.parse(json)
        XCTAssertEqual(m.version, "1.0.0-beta.1")
        XCTAssertEqual(m.primaryColumn, "geom")
        let cols = Dictionary(uniqueKeysWithValues: m.columns.map { ($0.name, $0.info) })
        let g = try XCTUnwrap(cols["geom"])
        XCTAssertEqual(g.crsPROJJSON, #"{"type":"ProjectedCRS","name":"x \"q\"","id":{"authority":"EPSG","code":2263}}"#)
        XCTAssertFalse(g.crsIsUnknown)
        XCTAssertEqual(g.geometryTypes, ["Polygon", "MultiPolygon Z"])
        XCTAssertEqual(g.bbox, BoundingBox(xmin: 1, ymin: 2, xmax: 3, ymax: 4))
        XCTAssertEqual(g.covering, BBoxCovering(xmin: "b.xmin", ymin: "b.ymin", xmax: "b.xmax", ymax: "b.ymax"))
        XCTAssertTrue(cols["unknown_crs"]?.crsIsUnknown ?? false)
        XCTAssertNil(cols["unknown_crs"]?.crsPROJJSON)
        XCTAssertEqual(cols["unknown_crs"]?.bbox, BoundingBox(xmin: 0, ymin: 1, xmax: 3, ymax: 4))
        XCTAssertEqual(cols["default_crs"]?.crsIdentifier, "OGC:CRS84")
        XCTAssertEqual(cols["default_crs"]?.edges, "spherical")
        XCTAssertEqual(cols["native"]?.encoding, .native("multipolygon"))
        XCTAssertFalse(cols["native"]?.isReadable ?? true)
        // The PROJJSON string is valid JSON.
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(try XCTUnwrap(g.crsPROJJSON).utf8)))
    }

    func testInvalidGeoMetadata() {
        for bad in ["", "[]", "{", #"{"columns": 3}"#, #"{"columns": {"g": {"covering": {"bbox": {"xmin": ["a"]}}}}}"#,
                    String(repeating: "[", count: 10_000)] {
            XCTAssertThrowsError(try GeoMetadata.parse(bad), bad.prefix(20).description)
        }
    }

    func testNativeEncodingIsReportedUnsupported() throws {
        let f = try GeoParquetFile(path: Corpus.fixture("native_point_encoding.parquet"))
        let info = try XCTUnwrap(f.geometryColumn(named: "geometry"))
        XCTAssertEqual(info.encoding, .native("point"))
        XCTAssertTrue(info.crsIsUnknown)
        do {
            try f.read(columns: ["id"]) { _ in }
            XCTFail("expected unsupported")
        } catch let e as GeoParquetError {
            XCTAssertEqual(e.kind, .unsupported)
            XCTAssertEqual(e.column, "geometry")
            XCTAssertTrue(e.message.contains("point"), e.message)
        }
        // Attributes (and the native struct's leaves) are still readable without geometry.
        let (b, _) = try f.readAll(columns: ["id", "geometry.x"], includeGeometry: false)
        XCTAssertEqual(b.first?.values["id"], .int64([1, 2, 3]))
        XCTAssertEqual(b.first?.values["geometry.x"], .double([1, 3, nil]))
    }

    func testLZ4RawAndHadoopFraming() throws {
        let payload: [UInt8] = Array("GeoParq!".utf8)
        let block: [UInt8] = [0x80] + payload     // one sequence: 8 literals, no match
        XCTAssertEqual(try block.withUnsafeBytes { try Decompressor.decompress(codec: 7, input: $0, expectedSize: 8) }, payload)
        let hadoop: [UInt8] = [0, 0, 0, 8, 0, 0, 0, 9] + block
        XCTAssertEqual(try hadoop.withUnsafeBytes { try Decompressor.decompress(codec: 5, input: $0, expectedSize: 8) }, payload)
        XCTAssertEqual(try block.withUnsafeBytes { try Decompressor.decompress(codec: 5, input: $0, expectedSize: 8) }, payload)
        XCTAssertThrowsError(try block.withUnsafeBytes { try Decompressor.decompress(codec: 7, input: $0, expectedSize: 9) })
        XCTAssertThrowsError(try Array(block.dropLast(3)).withUnsafeBytes { try Decompressor.decompress(codec: 7, input: $0, expectedSize: 8) })
    }

    func testRLEHybridAndDeltaDecoders() throws {
        // RLE run of 5 × value 3 (bit width 2), then a bit-packed group of 8 values 0...7 mod 4.
        let rle: [UInt8] = [0x0a, 0x03, 0x03, 0b1110_0100, 0b1110_0100]
        var out = [UInt32](repeating: 9, count: 13)
        try rle.withUnsafeBytes { buf in
            var d = try RLEHybridDecoder(buf, bitWidth: 2)
            try out.withUnsafeMutableBufferPointer { try d.decode(into: $0) }
        }
        XCTAssertEqual(out, [3, 3, 3, 3, 3, 0, 1, 2, 3, 0, 1, 2, 3])
        // Truncated bit-packed data throws.
        var short = [UInt32](repeating: 0, count: 16)
        XCTAssertThrowsError(try [UInt8]([0x05, 0xff]).withUnsafeBytes { buf in
            var d = try RLEHybridDecoder(buf, bitWidth: 8)
            try short.withUnsafeMutableBufferPointer { try d.decode(into: $0) }
        })
        // DELTA_BINARY_PACKED example from the Parquet spec: 1, 2, 3, 4, 5 (all deltas 1, bit width 0).
        let dbp: [UInt8] = [0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00]
        let (v, end) = try dbp.withUnsafeBytes { try DeltaDecoders.binaryPacked($0, start: 0, expected: 5) }
        XCTAssertEqual(v, [1, 2, 3, 4, 5])
        XCTAssertEqual(end, 10)
        XCTAssertThrowsError(try dbp.withUnsafeBytes { try DeltaDecoders.binaryPacked($0, start: 0, expected: 6) })
    }

    func testWKBVariants() throws {
        func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func be32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian, Array.init) }
        func le64(_ d: Double) -> [UInt8] { withUnsafeBytes(of: d.bitPattern.littleEndian, Array.init) }
        func be64(_ d: Double) -> [UInt8] { withUnsafeBytes(of: d.bitPattern.bigEndian, Array.init) }
        // ISO Point ZM, little endian.
        let zm = [1] + le32(3001) + le64(1) + le64(2) + le64(3) + le64(4)
        let g1 = try WKBGeometry(wkb: zm)
        XCTAssertTrue(g1.hasZ && g1.hasM)
        assertWKTEqual(g1.wkt, "POINT ZM (1 2 3 4)")
        // EWKB Point Z with SRID, big endian.
        let ewkb = [0] + be32(0xA000_0001) + be32(4326) + be64(5) + be64(6) + be64(7)
        let g2 = try WKBGeometry(wkb: ewkb)
        XCTAssertEqual(g2.srid, 4326)
        assertWKTEqual(g2.wkt, "POINT Z (5 6 7)")
        // ISO M linestring.
        let lm = [1] + le32(2002) + le32(2) + le64(0) + le64(0) + le64(9) + le64(1) + le64(1) + le64(8)
        assertWKTEqual(try WKBGeometry(wkb: lm).wkt, "LINESTRING M (0 0 9, 1 1 8)")
        XCTAssertEqual(WKBGeometry.envelope(of: lm), BoundingBox(xmin: 0, ymin: 0, xmax: 1, ymax: 1))
        // Empty point (NaN coordinates) and a collection containing it.
        let empty = [1] + le32(1) + le64(.nan) + le64(.nan)
        assertWKTEqual(try WKBGeometry(wkb: empty).wkt, "POINT EMPTY")
        XCTAssertNil(WKBGeometry.envelope(of: empty))
        let coll = [1] + le32(7) + le32(2) + empty + zm.prefix(5) + le64(1) + le64(2) + le64(3) + le64(4)
        assertWKTEqual(try WKBGeometry(wkb: coll).wkt, "GEOMETRYCOLLECTION (POINT EMPTY, POINT ZM (1 2 3 4))")
    }
}
