import XCTest
@testable import FlyrLink

/// The parts a snapshot's diff is made of, each against what it replaced: diff.json's byte writer
/// against JSONEncoder, links.csv read by spans against whole rows, digests read by name bytes.
final class SnapshotDiffFormatTests: XCTestCase {
    /// What `SnapshotDiff.write` wrote through JSONEncoder before the byte writer.
    func encoderBytes(_ diff: SnapshotDiff) throws -> [UInt8] {
        let e = SnapshotManifest.encoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        return Array(try e.encode(diff))
    }

    func testDiffJSONIsTheBytesJSONEncoderWrote() throws {
        var odd = ""
        for c in 0..<0x20 { odd.unicodeScalars.append(Unicode.Scalar(c)!) }
        odd += "\"\\/\u{7f}é😀\u{2028}"
        var diff = SnapshotDiff(campaignID: nil, from: nil, to: "v000001")
        XCTAssertEqual(SnapshotDiffJSON(diff).bytes, try encoderBytes(diff), "empty arrays, nulls")
        diff = SnapshotDiff(campaignID: "c/1", from: "v000001", to: "v000002")
        diff.links.added = [.init(addressID: odd, buildingID: "b1", linkID: "l1"), .init(addressID: "a2", buildingID: "", linkID: "l2")]
        diff.links.removed = [.init(addressID: "a3", buildingID: "b3", linkID: "l3")]
        diff.links.moved = [.init(addressID: "a4", fromBuildingID: "b4", toBuildingID: odd, fromLinkID: "l4", toLinkID: "l5")]
        diff.links.unchanged = 12
        diff.buildings = .init(added: ["b9"], removed: [], changed: [odd, "b8"], unchanged: 3)
        diff.addresses = .init(added: [], removed: ["a9"], changed: [], unchanged: 1_000_000)
        XCTAssertEqual(String(decoding: SnapshotDiffJSON(diff).bytes, as: UTF8.self), String(decoding: try encoderBytes(diff), as: UTF8.self))
        XCTAssertEqual(SnapshotDiffJSON(diff).bytes, try encoderBytes(diff))
    }

    func testCSVRowsReadQuotesNewlinesAndCarriageReturnsAsBefore() {
        let cases: [(String, [[String]])] = [
            ("", []),
            ("\n", [[""]]),
            ("a,b\n", [["a", "b"]]),
            ("a,b", [["a", "b"]]),
            ("a,", [["a", ""]]),
            ("a,b\r\nc,d\r\n", [["a", "b"], ["c", "d"]]),
            ("\"x,y\",\"he said \"\"hi\"\"\"\n", [["x,y", "he said \"hi\""]]),
            ("\"two\nlines\",z\n", [["two\nlines", "z"]]),
            ("\"\"\n", [[""]]),
            ("a\n\r", [["a"]]),
            ("é,\"ü\"\n", [["é", "ü"]]),
        ]
        for (text, rows) in cases { XCTAssertEqual(CSVRows.parse(text), rows, "\(text.debugDescription)") }
    }

    func testLinksCSVWithQuotedIdsIsReadWhole() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let path = dir.appendingPathComponent("links.csv").path
        try Data("id,campaign_id,building_id,address_id\nl1,c,b1,a1\nl2,c,\"b,2\",\"a\"\"2\"\nl3,c,b3\n".utf8).write(to: URL(fileURLWithPath: path))
        let links = try SnapshotFiles.readLinks(path)
        XCTAssertEqual(links.count, 2, "a short row is skipped")
        XCTAssertEqual(links["a1"]?.building, "b1")
        XCTAssertEqual(links["a\"2"]?.building, "b,2")
        XCTAssertEqual(links["a\"2"]?.link, "l2")
        try Data("x,y\n1,2\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SnapshotFiles.readLinks(path))
    }

    func testDigestsReadEscapedNamesAndTheIdPropertyAsBefore() throws {
        func digests(_ text: String, _ keys: [String] = FeatureDigests.buildingKeys) throws -> FeatureDigests.Table {
            var t = text
            return try t.withUTF8 { try FeatureDigests.of(UnsafeRawBufferPointer($0), keys: keys, file: "t") }
        }
        let geometry = #"{"type":"Polygon","coordinates":[[[10.0,56.0],[10.1,56.0],[10.1,56.1],[10.0,56.0]]]}"#
        let plain = try digests(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b1","geometry":\#(geometry),"properties":{"height_m":7.5,"levels":2}}]}"#)
        let escaped = try digests(#"{"features":[{"id":"b1","ge\u006fmetry":\#(geometry),"properties":{"h\u0065ight_m":7.5,"levels":2}}],"type":"FeatureCollection"}"#)
        let byProperty = try digests(#"{"type":"FeatureCollection","features":[{"geometry":\#(geometry),"properties":{"id":"b1","levels":2,"height_m":7.5}}]}"#)
        XCTAssertEqual(Array(plain.keys), ["b1"])
        XCTAssertEqual(plain, escaped)
        XCTAssertEqual(plain, byProperty)
        let changed = try digests(#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b1","geometry":\#(geometry),"properties":{"height_m":7.6,"levels":2}}]}"#)
        XCTAssertNotEqual(plain, changed)
        XCTAssertThrowsError(try digests(#"{"type":"FeatureCollection","features":[{"id":"b1","geometry":{"#))
    }
}
