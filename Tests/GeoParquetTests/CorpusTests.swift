import Foundation
import XCTest
@testable import GeoParquet

final class CorpusTests: XCTestCase {
    func testCorpusIsPresent() throws {
        let files = try Corpus.allParquetFiles()
        XCTAssertGreaterThanOrEqual(files.count, 22, "GeoParquet corpus missing or incomplete")
    }

    /// Every file opens, every primary geometry reads and decodes as WKB, all columns readable are read.
    func testEveryCorpusFileReads() throws {
        for path in try Corpus.allParquetFiles() {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let f = try GeoParquetFile(path: path)
            XCTAssertNotNil(f.primaryGeometryColumn, name)
            XCTAssertFalse(f.geometryColumns.isEmpty, name)
            let readable = f.columns.filter(\.isReadable).map(\.path)
            var rows = 0
            var nonNull = 0
            let stats = try f.read(columns: readable) { batch in
                XCTAssertEqual(batch.geometryWKB.count, batch.rowCount, name)
                for (col, v) in batch.values { XCTAssertEqual(v.count, batch.rowCount, "\(name) \(col)") }
                XCTAssertEqual(batch.firstRowIndex, rows, name)
                rows += batch.rowCount
                for wkb in batch.geometryWKB {
                    guard let wkb else { continue }
                    nonNull += 1
                    XCTAssertNoThrow(try WKBGeometry(wkb: wkb), "\(name): invalid WKB")
                }
            }
            XCTAssertEqual(rows, f.numRows, name)
            XCTAssertGreaterThan(nonNull, 0, name)
            XCTAssertEqual(stats.rowGroupsRead, f.rowGroupCount, name)
            XCTAssertGreaterThan(stats.bytesRead, 0, name)
        }
    }

    /// The OGC 1.1.0 test data: each geometry equals the WKT of the matching CSV.
    func testOGCWKBFilesMatchWKT() throws {
        for type in ["point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon"] {
            let expected = try readWKTCSV(try Corpus.path("ogc_v1.1.0_data-\(type)-wkt.csv"))
            let path = try Corpus.path("ogc_v1.1.0_data-\(type)-encoding_wkb.parquet")
            let f = try GeoParquetFile(path: path)
            XCTAssertEqual(f.geoMetadataVersion, "1.1.0")
            var wkbs: [[UInt8]?] = []
            var cols: [Int64?] = []
            try f.read(columns: ["col"]) { b in
                wkbs += b.geometryWKB
                cols += b.values["col"]?.int64Values ?? []
            }
            XCTAssertEqual(wkbs.count, expected.count, type)
            XCTAssertEqual(cols, (0..<expected.count).map { Int64($0) }, type)
            for (i, (wkb, wkt)) in zip(wkbs, expected).enumerated() {
                switch (wkb, wkt) {
                case (nil, nil): continue
                case let (w?, t?):
                    let g = try WKBGeometry(wkb: w)
                    assertWKTEqual(g.wkt, t, "\(type) row \(i)")
                default:
                    XCTFail("\(type) row \(i): null mismatch (wkb \(wkb == nil ? "null" : "set"), wkt \(wkt ?? "null"))")
                }
            }
        }
    }

    private func checkCompression(_ codec: String) throws {
        let path = try Corpus.path("gpt_compression-\(codec).parquet")
        let f = try GeoParquetFile(path: path)
        XCTAssertEqual(f.numRows, 3)
        XCTAssertEqual(f.geoMetadataVersion, "2.0-dev")
        let info = try XCTUnwrap(f.geometryColumn(named: "geometry"))
        XCTAssertEqual(info.encoding, .wkb)
        XCTAssertEqual(f.columns.first { $0.path == "geometry" }?.logicalType.map { "\($0)".hasPrefix("GEOMETRY") }, true)
        let got = try readGeometries(path)
        let reference = try readGeometries(try Corpus.path("gpt_compression-none.parquet"))
        XCTAssertEqual(got, reference, codec)
        XCTAssertEqual(got.count, 3)
        XCTAssertNil(got[2], "third row is a null geometry")
        XCTAssertEqual(got.compactMap { $0 }.count, 2)
        // Row-group bbox from the GEOMETRY type's geospatial statistics.
        XCTAssertEqual(f.rowGroupBoundingBox(0), BoundingBox(xmin: 1, ymin: 2, xmax: 3, ymax: 4))
        let miss = try f.read(bbox: BoundingBox(xmin: 10, ymin: 10, xmax: 11, ymax: 11)) { _ in XCTFail("pruned") }
        XCTAssertEqual(miss.rowGroupsRead, 0)
        for w in got.compactMap({ $0 }) {
            XCTAssertEqual(try WKBGeometry(wkb: w).typeName, "POINT")
        }
    }

    func testCompressionNone() throws { try checkCompression("none") }
    func testCompressionSnappy() throws { try checkCompression("snappy") }
    func testCompressionGzip() throws { try checkCompression("gzip") }
    func testCompressionBrotli() throws { try checkCompression("brotli") }
    func testCompressionLZ4Raw() throws { try checkCompression("lz4-raw") }
    func testCompressionZstd() throws { try checkCompression("zstd") }

    func testDelftBuildings() throws {
        let f = try GeoParquetFile(path: try Corpus.path("gpt_buildings-3d_delft_3dbag.parquet"))
        XCTAssertEqual(f.numRows, 3947)
        XCTAssertEqual(f.rowGroupCount, 4)
        XCTAssertEqual(f.primaryGeometryColumn, "geometry")
        let info = try XCTUnwrap(f.geometryColumn(named: "geometry"))
        let crs = try XCTUnwrap(info.crsPROJJSON)
        XCTAssertTrue(crs.contains("7415"), crs)
        XCTAssertFalse(info.crsIsUnknown)
        XCTAssertEqual(info.geometryTypes, ["Polygon Z"])
        var n = 0
        var ids = Set<String>()
        try f.read(columns: ["identificatie", "bouwjaar", "h_maaiveld"]) { b in
            n += b.rowCount
            for id in b.values["identificatie"]?.stringValues ?? [] { if let id { ids.insert(id) } }
            XCTAssertEqual(b.values["bouwjaar"]?.int64Values?.count, b.rowCount)
            XCTAssertEqual(b.values["h_maaiveld"]?.doubleValues?.count, b.rowCount)
            for w in b.geometryWKB.prefix(20) {
                let g = try WKBGeometry(wkb: try XCTUnwrap(w))
                XCTAssertTrue(g.hasZ)
                XCTAssertEqual(g.typeName, "POLYGON")
            }
        }
        XCTAssertEqual(n, 3947)
        XCTAssertEqual(ids.count, 3947)
    }

    /// The Delft sample has neither a bbox covering nor geometry statistics, so no reader can prune
    /// its row groups from metadata: all 4 are read and rows are filtered by their WKB envelope.
    /// (Pruning on Delft data is tested with the derived fixtures in FixtureTests.)
    func testDelftBBoxQueryFiltersRows() throws {
        let f = try GeoParquetFile(path: try Corpus.path("gpt_buildings-3d_delft_3dbag.parquet"))
        XCTAssertNil(f.rowGroupBoundingBox(0))
        var all: [BoundingBox] = []
        try f.read { b in all += b.geometryWKB.compactMap { $0.flatMap { WKBGeometry.envelope(of: $0) } } }
        XCTAssertEqual(all.count, 3947)
        let c = all[100]
        let q = BoundingBox(xmin: c.xmin - 10, ymin: c.ymin - 10, xmax: c.xmax + 10, ymax: c.ymax + 10)
        var rows = 0
        var indices: [Int] = []
        let stats = try f.read(columns: ["identificatie"], bbox: q) { b in
            rows += b.rowCount
            indices += b.rowIndices ?? []
            XCTAssertEqual(b.values["identificatie"]?.count, b.rowCount)
            for w in b.geometryWKB {
                XCTAssertTrue(try XCTUnwrap(WKBGeometry.envelope(of: try XCTUnwrap(w))).intersects(q))
            }
        }
        XCTAssertEqual(stats.rowGroupsTotal, 4)
        XCTAssertEqual(rows, all.filter { $0.intersects(q) }.count)
        XCTAssertTrue(indices.contains(100))
        XCTAssertGreaterThan(rows, 0)
    }

    func testOvertureBuildings() throws {
        let f = try GeoParquetFile(path: try Corpus.path("geoarrowrs_overture_buildings_100.parquet"))
        XCTAssertEqual(f.numRows, 100)
        let info = try XCTUnwrap(f.geometryColumn(named: "geometry"))
        XCTAssertEqual(info.covering, BBoxCovering(xmin: "bbox.xmin", ymin: "bbox.ymin", xmax: "bbox.xmax", ymax: "bbox.ymax"))
        XCTAssertEqual(info.crsIdentifier, "OGC:CRS84")
        XCTAssertNil(info.crsPROJJSON)
        XCTAssertFalse(info.crsIsUnknown)
        XCTAssertFalse(f.columns.first { $0.path == "sources.list.element.dataset" }?.isReadable ?? true)
        let (batches, _) = try f.readAll(columns: ["id", "bbox", "height", "has_parts", "names.primary"])
        let ids = batches.flatMap { $0.values["id"]?.stringValues ?? [] }
        XCTAssertEqual(ids.count, 100)
        XCTAssertEqual(Set(ids.compactMap { $0 }).count, 100)
        XCTAssertTrue(ids.allSatisfy { ($0?.count ?? 0) >= 16 })
        XCTAssertEqual(batches.first?.values["bbox.xmin"]?.count, 100)
        XCTAssertEqual(batches.first?.values["has_parts"]?.boolValues?.count, 100)
        // Bbox pruning with the bbox struct statistics: a box far away reads nothing.
        let far = BoundingBox(xmin: 100, ymin: 10, xmax: 101, ymax: 11)
        XCTAssertNotNil(f.rowGroupBoundingBox(0))
        let s = try f.read(columns: ["id"], bbox: far) { _ in XCTFail("no row group should be read") }
        XCTAssertEqual(s.rowGroupsRead, 0)
        XCTAssertEqual(s.bytesRead, 0)
        // A box around the first building returns it (and rows are filtered by bbox).
        let xmin = try XCTUnwrap(batches[0].values["bbox.xmin"]?.doubleValues?[0])
        let ymin = try XCTUnwrap(batches[0].values["bbox.ymin"]?.doubleValues?[0])
        let q = BoundingBox(xmin: xmin, ymin: ymin, xmax: xmin + 1e-6, ymax: ymin + 1e-6)
        var got: [String?] = []
        try f.read(columns: ["id"], bbox: q) { got += $0.values["id"]?.stringValues ?? [] }
        XCTAssertTrue(got.contains(ids[0]))
        XCTAssertLessThan(got.count, 100)
    }

    func testNYBB() throws {
        let f = try GeoParquetFile(path: try Corpus.path("geoarrowrs_nybb_wkb_covering.parquet"))
        XCTAssertEqual(f.numRows, 5)
        let info = try XCTUnwrap(f.geometryColumn(named: "geometry"))
        XCTAssertTrue(info.crsPROJJSON?.contains("2263") ?? false)
        let (b, _) = try f.readAll(columns: ["BoroName", "BoroCode", "Shape_Area"])
        let names = b.flatMap { $0.values["BoroName"]?.stringValues ?? [] }.compactMap { $0 }
        XCTAssertEqual(Set(names), ["Staten Island", "Queens", "Brooklyn", "Manhattan", "Bronx"])
        for w in b.flatMap(\.geometryWKB) {
            XCTAssertEqual(try WKBGeometry(wkb: try XCTUnwrap(w)).typeName, "MULTIPOLYGON")
        }
    }

    func testCRSVariants() throws {
        // Explicit PROJJSON (OGC example), absent (Overture → CRS84), PROJJSON from gpio.
        let ogc = try GeoParquetFile(path: try Corpus.path("ogc_v1.0.0_example.parquet"))
        XCTAssertEqual(ogc.geoMetadataVersion, "1.0.0")
        XCTAssertNotNil(ogc.geometryColumn(named: "geometry")?.crsPROJJSON)
        let austria = try GeoParquetFile(path: try Corpus.path("gpio_austria_bbox_covering_zstd.parquet"))
        XCTAssertTrue(austria.geometryColumn(named: "geometry")?.crsPROJJSON?.contains("31287") ?? false)
        let cov = try XCTUnwrap(austria.geometryColumn(named: "geometry")?.covering)
        XCTAssertEqual(cov.xmin, "geometry_bbox.xmin")
        XCTAssertNotNil(austria.rowGroupBoundingBox(0))
        let ogc11 = try GeoParquetFile(path: try Corpus.path("ogc_v1.1.0_example_bbox_covering.parquet"))
        XCTAssertEqual(ogc11.geometryColumn(named: "geometry")?.covering?.xmax, "bbox.xmax")
        XCTAssertNotNil(ogc11.rowGroupBoundingBox(0))
    }

    func testTwoGeometryColumns() throws {
        let path = try Corpus.path("gpt_buildings-with-centroid_osm_wellington.parquet")
        let f = try GeoParquetFile(path: path)
        XCTAssertEqual(f.primaryGeometryColumn, "footprint")
        XCTAssertEqual(Set(f.geometryColumns.map(\.name)), ["footprint", "centroid"])
        let centroids = try readGeometries(path, column: "centroid")
        let footprints = try readGeometries(path)
        XCTAssertEqual(centroids.count, 83)
        XCTAssertEqual(footprints.count, 83)
        for c in centroids.compactMap({ $0 }) { XCTAssertEqual(try WKBGeometry(wkb: c).typeName, "POINT") }
        for c in footprints.compactMap({ $0 }) { XCTAssertEqual(try WKBGeometry(wkb: c).typeName, "MULTIPOLYGON") }
    }

    func testDuckDBAndGDALFiles() throws {
        let duck = try GeoParquetFile(path: try Corpus.path("gpio_buildings_test_duckdb_zstd.parquet"))
        XCTAssertEqual(duck.numRows, 42)
        let (b, _) = try duck.readAll(columns: ["id"])
        XCTAssertEqual(b.flatMap { $0.values["id"]?.stringValues ?? [] }.compactMap { $0 }.count, 42)
        let gdal = try GeoParquetFile(path: try Corpus.path("geopandas_test_data_gdal390_float_bbox_covering.parquet"))
        XCTAssertEqual(gdal.geometryColumn(named: "geometry")?.covering?.ymax, "geometry_bbox.ymax")
        let (g, _) = try gdal.readAll(columns: ["col_str", "col_int", "col_float"])
        XCTAssertEqual(g.first?.values["col_int"]?.count, 2)
    }

    func testUnknownColumnThrows() throws {
        let f = try GeoParquetFile(path: try Corpus.path("gpt_compression-none.parquet"))
        do {
            try f.read(columns: ["nope"]) { _ in }
            XCTFail("expected error")
        } catch let e as GeoParquetError {
            XCTAssertEqual(e.kind, .columnNotFound)
            XCTAssertEqual(e.column, "nope")
            XCTAssertTrue(e.description.contains("gpt_compression-none.parquet"))
        }
    }
}

final class APITests: XCTestCase {
    private func requireSendable<T: Sendable>(_: T.Type) {}

    func testPublicTypesAreSendable() {
        requireSendable(GeoParquetFile.self)
        requireSendable(GeoParquetBatch.self)
        requireSendable(ParquetValues.self)
        requireSendable(ReadStats.self)
        requireSendable(GeoColumnInfo.self)
        requireSendable(GeoParquetError.self)
        requireSendable(WKBGeometry.self)
    }

    /// Row groups read concurrently (one task per row group) equal a sequential read.
    func testConcurrentRowGroupReads() async throws {
        let f = try GeoParquetFile(path: try Corpus.path("gpt_buildings-3d_delft_3dbag.parquet"))
        var sequential: [[UInt8]?] = []
        try f.read(columns: []) { sequential += $0.geometryWKB }
        let parts = try await withThrowingTaskGroup(of: (Int, [[UInt8]?]).self) { group in
            for rg in 0..<f.rowGroupCount {
                group.addTask {
                    var g: [[UInt8]?] = []
                    let s = try f.read(rowGroups: [rg]) { g += $0.geometryWKB }
                    XCTAssertEqual(s.rowGroupsRead, 1)
                    return (rg, g)
                }
            }
            var out: [(Int, [[UInt8]?])] = []
            for try await p in group { out.append(p) }
            return out.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
        XCTAssertEqual(parts, sequential)
        XCTAssertThrowsError(try f.read(rowGroups: [4]) { _ in })
    }
}
