import Foundation
import XCTest
@testable import GeoParquet

/// `GeoParquetWriter` read back by the project's own reader: every value and geometry, the `geo`
/// metadata with its bbox covering, row groups in spatial order (a small box reads few of them,
/// through the bbox columns' statistics), the same bytes twice. (GeoPandas and DuckDB read the
/// writer's files in FlyrLinkTests.OutputFormatTests.)
final class WriterTests: XCTestCase {
    /// 10,000 points of a 100 × 100 grid, shuffled, with a text (every seventh null), an integer,
    /// a double and a boolean column.
    private func table() -> (columns: [ParquetColumnBuffer], geometry: ParquetColumnBuffer) {
        var cells = Array(0..<10_000)
        var seed: UInt64 = 42
        for i in stride(from: cells.count - 1, to: 0, by: -1) {  // Fisher–Yates with a fixed LCG
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            cells.swapAt(i, Int(seed >> 33) % (i + 1))
        }
        var id = ParquetColumnBuffer(name: "id", kind: .text)
        var label = ParquetColumnBuffer(name: "label", kind: .text)
        var count = ParquetColumnBuffer(name: "count", kind: .int64)
        var score = ParquetColumnBuffer(name: "score", kind: .double)
        var flag = ParquetColumnBuffer(name: "flag", kind: .boolean)
        var geometry = ParquetColumnBuffer(name: "geometry", kind: .binary)
        for c in cells {
            id.append(text: "p\(c)")
            if c % 7 == 0 { label.appendNull() } else { label.append(text: "näme \(c)") }
            count.append(int: Int64(c) * 1_000_003)
            if c % 5 == 0 { score.appendNull() } else { score.append(double: Double(c) / 3) }
            flag.append(bool: c % 3 == 0)
            geometry.append(bytes: Self.point(x: 10 + Double(c % 100) * 0.001, y: 56 + Double(c / 100) * 0.001))
        }
        return ([id, label, count, score, flag], geometry)
    }

    static func point(x: Double, y: Double) -> [UInt8] {
        var b: [UInt8] = [1, 1, 0, 0, 0]
        withUnsafeBytes(of: x.bitPattern.littleEndian) { b += $0 }
        withUnsafeBytes(of: y.bitPattern.littleEndian) { b += $0 }
        return b
    }

    func testWrittenFileReadsBackWithEveryValueAndPrunesByBox() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpq-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (columns, geometry) = table()
        let path = dir.appendingPathComponent("points.parquet").path
        try GeoParquetWriter.write(path: path, columns: columns, geometry: geometry, rowGroupSize: 1_000)

        let file = try GeoParquetFile(path: path)
        XCTAssertEqual(file.numRows, 10_000)
        XCTAssertEqual(file.rowGroupCount, 10)
        XCTAssertEqual(file.geoMetadataVersion, "1.1.0")
        XCTAssertEqual(file.primaryGeometryColumn, "geometry")
        let geo = try XCTUnwrap(file.geometryColumn(named: "geometry"))
        XCTAssertEqual(geo.geometryTypes, ["Point"])
        XCTAssertEqual(geo.bbox, BoundingBox(xmin: 10, ymin: 56, xmax: 10.099, ymax: 56.099))
        XCTAssertNotNil(geo.covering, "the bbox covering is declared")

        // Every row's values, found by id (rows are in spatial order, not the input's).
        var seen = 0
        try file.read(columns: ["id", "label", "count", "score", "flag"]) { batch in
            let ids = try XCTUnwrap(batch.values["id"]?.stringValues)
            let labels = try XCTUnwrap(batch.values["label"]?.stringValues)
            let counts = try XCTUnwrap(batch.values["count"]?.int64Values)
            let scores = try XCTUnwrap(batch.values["score"]?.doubleValues)
            let flags = try XCTUnwrap(batch.values["flag"]?.boolValues)
            for r in 0..<batch.rowCount {
                let c = try XCTUnwrap(Int(try XCTUnwrap(ids[r]).dropFirst()))
                XCTAssertEqual(labels[r], c % 7 == 0 ? nil : "näme \(c)")
                XCTAssertEqual(counts[r], Int64(c) * 1_000_003)
                XCTAssertEqual(scores[r], c % 5 == 0 ? nil : Double(c) / 3)
                XCTAssertEqual(flags[r], c % 3 == 0)
                XCTAssertEqual(batch.geometryWKB[r], Self.point(x: 10 + Double(c % 100) * 0.001, y: 56 + Double(c / 100) * 0.001))
                seen += 1
            }
        }
        XCTAssertEqual(seen, 10_000)

        // A box of 4% of the area: rows in Hilbert order put it in few row groups, the others
        // skipped through the bbox statistics. In the shuffled input order every group of 1,000
        // would reach it (none would miss with probability 0.96^1000); this box straddles the
        // centre, where the curve's four quadrants meet, and reads 4 of the 10 (measured; the
        // order is deterministic).
        let box = BoundingBox(xmin: 10.0395, ymin: 56.0395, xmax: 10.0595, ymax: 56.0595)
        var inBox = 0
        let stats = try file.read(columns: ["id"], bbox: box) { inBox += $0.rowCount }
        XCTAssertEqual(inBox, 400)
        XCTAssertLessThanOrEqual(stats.rowGroupsRead, 4, "\(stats)")
        XCTAssertEqual(stats.rowGroupsTotal, 10)

        // The same rows, the same bytes.
        let again = dir.appendingPathComponent("again.parquet").path
        try GeoParquetWriter.write(path: again, columns: columns, geometry: geometry, rowGroupSize: 1_000)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: again)), try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func testThriftCompactEncoderIsReadByTheDecoder() throws {
        var e = ThriftCompactEncoder()
        e.structValue { s in
            s.i32(1, -7)
            s.i64(3, 1 << 40)
            s.string(20, "long id jump")  // a field header beyond 15: the long form
            s.list(21, ThriftCompactDecoder.WireType.i32, count: 20) { l in for i in 0..<20 { l.zigZag(Int64(i - 10)) } }
        }
        var d = ThriftCompactDecoder(bytes: e.bytes)
        var fields: [Int16] = []
        try d.readStruct { d, id, t in
            fields.append(id)
            switch id {
            case 1: XCTAssertEqual(try d.readI32(t), -7)
            case 3: XCTAssertEqual(try d.readInt(t), 1 << 40)
            case 20: XCTAssertEqual(try d.readString(t), "long id jump")
            case 21: XCTAssertEqual(try d.readListI32(t), (0..<20).map { Int32($0 - 10) })
            default: XCTFail("field \(id)")
            }
        }
        XCTAssertEqual(fields, [1, 3, 20, 21])
        XCTAssertEqual(d.remaining, 0)
    }
}
