import XCTest
@testable import FlyrLink

/// Ground truth from the Danish address register: every address with its true building.
final class RealDataTests: XCTestCase {
    func testDanishAddressesLinkToTheirTrueBuilding() throws {
        let buildings = try TestPaths.sharedData("dk/buildings.geojson")
        let addresses = try TestPaths.sharedData("dk/addresses_with_truth.geojson")
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        var options = RunOptions(buildings: SourceSpec(location: buildings), addresses: SourceSpec(location: addresses), output: out)
        options.fields = FieldMapping(address: ["id": "husnummer_id", "formatted": "betegnelse"], building: ["id": "ID_LOKALID"])
        let run = try LinkPipeline(options: options).run()
        XCTAssertEqual(run.report.inputs["buildings"]?.crs, "EPSG:25832")

        // Truth: truth_bygning_id per husnummer_id, read with GDAL like any input.
        let truthTable = try GDALSourceReader.read(SourceSpec(location: addresses), role: .addresses,
                                                   mapping: FieldMapping(address: ["id": "husnummer_id", "formatted": "truth_bygning_id"]))
        let formattedIndex = AddressField.allCases.firstIndex(of: .formatted)!
        var truth: [String: String] = [:]
        for r in truthTable.records { truth[r.values[0]!] = r.values[formattedIndex] }
        XCTAssertEqual(truth.count, 587)

        var correct = 0
        for l in run.links where truth[run.addresses[l.addressIndex].id] == run.buildings[l.buildingIndex].id { correct += 1 }
        let share = Double(correct) / Double(truth.count)
        XCTAssertGreaterThanOrEqual(share, 0.99, "\(correct) of \(truth.count) linked to the true building")
        XCTAssertEqual(run.report.counts.rejected, 0)
    }
}
