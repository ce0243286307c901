import XCTest
@testable import FlyrLink

/// Every member of a GeoJSON FeatureCollection's `features` (or of a text sequence) is a row: read,
/// or rejected with a reason. The reader's count of members is accepted + rejected.
final class GeoJSONMembersTests: XCTestCase {
    /// The type changes made to members (0-based) and the reject reason each gives.
    static var changes: [(member: Int, type: Any?, reason: String)] { [
        (7, "Featrue", #"not a GeoJSON Feature: its "type" is "Featrue", not "Feature""#),
        (50, nil, #"not a GeoJSON Feature: it has no "type" member"#),
        (123, NSNull(), #"not a GeoJSON Feature: its "type" is null"#),
        (200, "feature", #"not a GeoJSON Feature: its "type" is "feature", not "Feature""#),
        (301, 7, #"not a GeoJSON Feature: its "type" is not a string"#),
    ] }

    /// Members replaced by values that are not objects.
    static var nonObjects: [(member: Int, value: Any)] { [(380, 42), (390, NSNull()), (395, "Feature")] }
    static let nonObjectReasons = [381: "not a GeoJSON Feature: a number, not an object", 391: "not a GeoJSON Feature: null, not an object",
                                   396: "not a GeoJSON Feature: a string, not an object"]

    /// The first `count` features of `source` with the `changes` and `nonObjects` made, a bare
    /// geometry in place of member `bare`, and an empty object as the last member; returns the
    /// bare geometry's type.
    @discardableResult
    func brokenCopy(of source: String, count: Int, bare: Int, to path: URL) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        var collection = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        var features = Array(try XCTUnwrap(collection["features"] as? [[String: Any]]).prefix(count - 1))
        for change in Self.changes {
            if change.type == nil { features[change.member]["type"] = nil } else { features[change.member]["type"] = change.type }
        }
        let geometry = try XCTUnwrap(features[bare]["geometry"] as? [String: Any])
        features[bare] = geometry
        features.append([:])
        var members: [Any] = features
        for (member, value) in Self.nonObjects { members[member] = value }
        collection["features"] = members
        try JSONSerialization.data(withJSONObject: collection).write(to: path)
        return try XCTUnwrap(geometry["type"] as? String)
    }

    func testMembersThatAreNotFeaturesAreRejectedWithTheirReasons() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let addresses = dir.appendingPathComponent("addresses.geojson"), buildings = dir.appendingPathComponent("buildings.geojson")
        let bareTypes = ["addresses": try brokenCopy(of: TestPaths.helsinkiAddresses, count: 400, bare: 250, to: addresses),
                         "buildings": try brokenCopy(of: TestPaths.helsinkiBuildings, count: 400, bare: 320, to: buildings)]
        let inputs = try OutputFiles.everyFile(dir)
        let out = dir.appendingPathComponent("out")

        let r = try ProcessRunner.flyrLink(["run", "--buildings", buildings.path, "--addresses", addresses.path, "--out", out.path, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try OutputFiles.everyFile(dir).filter { !$0.key.hasPrefix("out/") }, inputs, "the inputs are untouched")

        let rejects = try OutputFiles.csv(out.appendingPathComponent("rejects.csv").path)
        let expected = Self.changes.map { (row: $0.member + 1, reason: $0.reason) }
        for (layer, bare) in [("addresses", 251), ("buildings", 321)] {
            let reasons = Dictionary(rejects.filter { $0["layer"] == layer }.map { (Int($0["source_row"]!)!, $0["reason"]!) }) { a, _ in a }
            for e in expected { XCTAssertEqual(reasons[e.row], e.reason, "\(layer) row \(e.row)") }
            for (row, reason) in Self.nonObjectReasons { XCTAssertEqual(reasons[row], reason, "\(layer) row \(row)") }
            XCTAssertEqual(reasons[bare], #"not a GeoJSON Feature: a bare \#(bareTypes[layer]!) geometry ("type" must be "Feature", with the geometry in "geometry")"#,
                           "\(layer) row \(bare)")
            XCTAssertEqual(reasons[400], #"not a GeoJSON Feature: it has no "type" member"#, "\(layer) row 400")
        }
        // Every member is accounted for: accepted + rejected = 400, in each layer.
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let counts = try XCTUnwrap(report["counts"] as? [String: Any])
        XCTAssertEqual((counts["addresses"] as! Int) + (counts["rejected"] as! Int), 400, "\(counts)")
        let acceptedBuildings = try OutputFiles.geojson(out.appendingPathComponent("buildings.geojson").path).count
        XCTAssertEqual(acceptedBuildings + rejects.filter { $0["layer"] == "buildings" }.count, 400)
        XCTAssertEqual(counts["buildings_rejected"] as? Int, rejects.filter { $0["layer"] == "buildings" }.count)
    }

    func testTheReaderGivesARowForEveryMemberOfASequenceOrCollection() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let feature = #"{"type":"Feature","properties":{"id":"f"},"geometry":{"type":"Point","coordinates":[24.9,60.1]}}"#
        let seq = dir.appendingPathComponent("a.geojsonl")
        try [feature, #"{"type":"Point","coordinates":[24.9,60.1]}"#, "{}", "7", feature].joined(separator: "\n").write(to: seq, atomically: true, encoding: .utf8)
        let collection = dir.appendingPathComponent("b.geojson")
        try #"{"features":[\#(feature),{},{"type":null,"properties":{"id":"n"}},[1,{}],\#(feature)],"type":"FeatureCollection"}"#
            .write(to: collection, atomically: true, encoding: .utf8)
        for (path, rejected) in [(seq.path, [2, 3, 4]), (collection.path, [2, 3, 4])] {
            let table = try GeoJSONSourceReader.read(SourceSpec(location: path), role: .addresses, mapping: FieldMapping())
            XCTAssertEqual(table.records.map(\.ordinal), [1, 2, 3, 4, 5], path)
            XCTAssertEqual(table.records.filter { $0.notAFeature != nil }.map(\.ordinal), rejected, path)
        }
        // A file whose one value is a bare geometry is still GDAL's to read (as one feature).
        let bare = dir.appendingPathComponent("c.geojson")
        try #"{"type":"Point","coordinates":[24.9,60.1]}"#.write(to: bare, atomically: true, encoding: .utf8)
        XCTAssertNil(try GeoJSONSourceReader.readOwn(SourceSpec(location: bare.path), role: .addresses, mapping: FieldMapping()))
    }
}
