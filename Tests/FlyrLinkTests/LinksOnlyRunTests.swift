import XCTest
@testable import FlyrLink

/// A links-only run keeps of the address fields only those linking reads; what it links, and the
/// ids it makes for rows without one, are those of a run that writes everything.
final class LinksOnlyRunTests: XCTestCase {
    private func run(_ buildings: String, _ addresses: String, only: RunOptions.OutputSelection) throws -> (LinkRun, String) {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out-\(only.rawValue)").path
        var options = RunOptions(buildings: SourceSpec(location: buildings), addresses: SourceSpec(location: addresses), output: out)
        options.only = only
        options.threads = 2
        options.campaignID = "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"
        let run = try LinkPipeline(options: options).run()
        try RunWriter.write(run)
        return (run, out)
    }

    func testLinksOnlyKeepsTheLinkingFieldsAndLinksAlike() throws {
        let (all, allOut) = try run(TestPaths.rowsBuildings, TestPaths.rowsAddresses, only: .all)
        let (linksOnly, linksOut) = try run(TestPaths.rowsBuildings, TestPaths.rowsAddresses, only: .links)
        XCTAssertFalse(all.units.isEmpty, "the sample has townhouse rows (the split reads street and number)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(linksOut)/links.csv")),
                       try Data(contentsOf: URL(fileURLWithPath: "\(allOut)/links.csv")))
        XCTAssertEqual(all.addresses.count, linksOnly.addresses.count)
        // Nothing a links-only run writes has geometry: its points were moved into the metric frame.
        XCTAssertNil(linksOnly.location(ofAddress: 0))
        XCTAssertTrue(linksOnly.addressLocations.isEmpty)
        XCTAssertEqual(all.addressLocations.count, all.addresses.count)
        var dropped = 0
        for (a, b) in zip(all.addresses, linksOnly.addresses) {
            XCTAssertEqual(a.id, b.id)
            for field in AddressField.allCases where field != .id {
                if AddressField.linking.contains(field) {
                    XCTAssertEqual(b[field], a[field], "\(a.id) \(field)")
                } else {
                    XCTAssertNil(b[field], "\(a.id) \(field)")
                    if a[field] != nil { dropped += 1 }
                }
            }
        }
        XCTAssertGreaterThan(dropped, 0, "the sample has postcodes and cities to drop")
    }

    func testRowsWithoutIdsGetTheSameContentIdsInEitherRun() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let buildings = dir.appendingPathComponent("b.geojson"), addresses = dir.appendingPathComponent("a.geojson")
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"b1"},"geometry":{"type":"Polygon","coordinates":[[[10.0,56.0],[10.0002,56.0],[10.0002,56.0001],[10.0,56.0001],[10.0,56.0]]]}}
        ]}
        """.write(to: buildings, atomically: true, encoding: .utf8)
        // The same house number and street, told apart only by a field links-only runs drop.
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"house_number":"5","street_name":"Test Street","postal_code":"1000"},"geometry":{"type":"Point","coordinates":[10.0001,56.00005]}},
        {"type":"Feature","properties":{"house_number":"5","street_name":"Test Street","postal_code":"2000"},"geometry":{"type":"Point","coordinates":[10.0001,56.00005]}}
        ]}
        """.write(to: addresses, atomically: true, encoding: .utf8)
        let (all, _) = try run(buildings.path, addresses.path, only: .all)
        let (linksOnly, _) = try run(buildings.path, addresses.path, only: .links)
        XCTAssertEqual(all.addresses.count, 2)
        XCTAssertEqual(all.addresses.map(\.id), linksOnly.addresses.map(\.id))
        XCTAssertEqual(all.addresses.map(\.sourceRow), linksOnly.addresses.map(\.sourceRow))
        XCTAssertEqual(Set(all.addresses.compactMap { $0[.postalCode] }), ["1000", "2000"])
        XCTAssertTrue(linksOnly.addresses.allSatisfy { $0[.postalCode] == nil })
    }
}
