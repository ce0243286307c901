import Foundation
import XCTest
@testable import SyntheticCity

final class EvaluatorTests: XCTestCase {
    private let truthCSV = """
        address_id,building_id,kind,placement,unit_index,units_in_row
        a1,b1,house,inside,,
        a2,b2,house,outline,,
        a3,b3,townhouse_row,front,0,3
        a4,b3,townhouse_row,street_drift,1,3
        a5,,vacant_lot,lot,,
        a6,b4,apartment,inside,,

        """

    // Columns reordered, an extra column with quotes, commas and a newline inside.
    private let linksCSV = "note,confidence,building_id,address_id,unit_id\r\n"
        + "\"hello, \"\"world\"\"\",0.95,b1,a1,\r\n"   // correct          [0.95,1.0]
        + "x,0.55,b9,a2,\r\n"                          // wrong building   [0.5,0.6)
        + "y,0.9,b3,a3,U1\r\n"                         // correct          [0.9,0.95)
        + "z,0.72,b1,a5,\r\n"                          // false link       [0.7,0.8)
        + "w,1.0,b3,a3,\r\n"                           // duplicate: error [0.95,1.0]
        + "v,0.65,b7,a99,\r\n"                         // unknown address  [0.6,0.7)
        + "u,,,a6,\r\n"                                // no building: not a link -> a6 missed
        + "\"multi\nline\",0.4,b3,a4,\r\n"             // correct, confidence outside the bands

    private func result() throws -> EvaluationResult {
        let truth = try parseTruth(csv: Data(truthCSV.utf8))
        let links = try parseLinks(csv: Data(linksCSV.utf8))
        return evaluate(links: links, truth: truth)
    }

    func testParsesTruthAndLinks() throws {
        let truth = try parseTruth(csv: Data(truthCSV.utf8))
        XCTAssertEqual(truth.count, 6)
        XCTAssertEqual(truth["a3"], TruthRecord(addressId: "a3", buildingId: "b3", kind: "townhouse_row",
                                                placement: "front", unitIndex: 0, unitsInRow: 3))
        XCTAssertNil(truth["a5"]?.buildingId)
        let links = try parseLinks(csv: Data(linksCSV.utf8))
        XCTAssertEqual(links.count, 8)
        XCTAssertEqual(links[2], LinkRecord(addressId: "a3", buildingId: "b3", confidence: 0.9, unitId: "U1"))
        XCTAssertEqual(links[6].buildingId, nil)
        XCTAssertEqual(links[7].addressId, "a4")
    }

    func testOverallNumbers() throws {
        let r = try result()
        XCTAssertEqual(r.linkRows, 8)
        XCTAssertEqual(r.overall.links, 7)
        XCTAssertEqual(r.overall.correct, 3)
        XCTAssertEqual(r.overall.precision, 3.0 / 7.0, accuracy: 1e-12)
        XCTAssertEqual(r.overall.withBuilding, 5)
        XCTAssertEqual(r.overall.recall, 3.0 / 5.0, accuracy: 1e-12)
        let p = 3.0 / 7.0, rc = 0.6
        XCTAssertEqual(r.overall.f1, 2 * p * rc / (p + rc), accuracy: 1e-12)
        XCTAssertEqual(r.overall.missed, 1)
        XCTAssertEqual(r.overall.falseLinks, 1)
        XCTAssertEqual(r.overall.wrongBuilding, 1)
        XCTAssertEqual(r.overall.duplicates, 1)
        XCTAssertEqual(r.overall.unknownAddress, 1)
        XCTAssertEqual(r.duplicateAddressIds, ["a3"])
        XCTAssertEqual(r.unknownAddressIdsSample, ["a99"])
    }

    func testConfidenceBands() throws {
        let r = try result()
        XCTAssertEqual(r.confidenceBands.map(\.lower), [0.5, 0.6, 0.7, 0.8, 0.9, 0.95])
        XCTAssertEqual(r.confidenceBands.map(\.links), [1, 1, 1, 0, 1, 2])
        XCTAssertEqual(r.confidenceBands.map(\.correct), [0, 0, 0, 0, 1, 1])
        XCTAssertEqual(r.confidenceBands.map(\.accuracy), [0, 0, 0, 0, 1, 0.5])
        XCTAssertEqual(r.confidenceBands.last?.label, "[0.95,1.0]")
        XCTAssertEqual(r.linksOutsideBands, 1)
        XCTAssertEqual(r.highConfidenceLinks, 3)
        XCTAssertEqual(r.highConfidenceCorrect, 2)
        XCTAssertEqual(r.highConfidenceAccuracy, 2.0 / 3.0, accuracy: 1e-12)
    }

    func testBreakdownsAreSortedAndAddUp() throws {
        let r = try result()
        XCTAssertEqual(r.byKind.map(\.name), ["(not in truth)", "apartment", "house", "townhouse_row", "vacant_lot"])
        let kind = Dictionary(uniqueKeysWithValues: r.byKind.map { ($0.name, $0) })
        XCTAssertEqual(kind["house"]?.links, 2)
        XCTAssertEqual(kind["house"]?.correct, 1)
        XCTAssertEqual(kind["house"]?.wrongBuilding, 1)
        XCTAssertEqual(kind["house"]?.precision, 0.5)
        XCTAssertEqual(kind["townhouse_row"]?.links, 3)
        XCTAssertEqual(kind["townhouse_row"]?.correct, 2)
        XCTAssertEqual(kind["townhouse_row"]?.duplicates, 1)
        XCTAssertEqual(kind["townhouse_row"]?.recall, 1)
        XCTAssertEqual(kind["vacant_lot"]?.falseLinks, 1)
        XCTAssertEqual(kind["vacant_lot"]?.withBuilding, 0)
        XCTAssertEqual(kind["apartment"]?.missed, 1)
        XCTAssertEqual(kind["apartment"]?.links, 0)
        XCTAssertEqual(kind["(not in truth)"]?.unknownAddress, 1)
        XCTAssertEqual(r.byKind.map(\.links).reduce(0, +), r.overall.links)
        XCTAssertEqual(r.byPlacement.map(\.correct).reduce(0, +), r.overall.correct)
        let placement = Dictionary(uniqueKeysWithValues: r.byPlacement.map { ($0.name, $0) })
        XCTAssertEqual(placement["inside"]?.addresses, 2)
        XCTAssertEqual(placement["inside"]?.correct, 1)
        XCTAssertEqual(placement["inside"]?.missed, 1)
        XCTAssertEqual(placement["lot"]?.falseLinks, 1)
    }

    func testAddressFileCheckAndCodableRoundTrip() throws {
        let truth = try parseTruth(csv: Data(truthCSV.utf8))
        let links = try parseLinks(csv: Data(linksCSV.utf8))
        let r = evaluate(links: links, truth: truth, addressIds: ["a1", "a2", "a3", "a4", "a5", "a6", "a7"])
        XCTAssertEqual(r.addressFile, AddressFileCheck(addressesInFile: 7, truthAddressesNotInFile: 0,
                                                       fileAddressesNotInTruth: 1, linksToAddressesNotInFile: 1))
        let data = try JSONEncoder().encode(r)
        XCTAssertEqual(try JSONDecoder().decode(EvaluationResult.self, from: data), r)
        let text = EvaluationReport.text(r)
        XCTAssertTrue(text.contains("confidence >= 0.9: 3 links, accuracy 0.6667"), text)
        XCTAssertTrue(text.contains("precision:       0.4286"), text)
    }

    func testMissingColumnIsAnError() {
        XCTAssertThrowsError(try parseLinks(csv: Data("address_id,confidence\na1,0.9\n".utf8)))
        XCTAssertThrowsError(try parseTruth(csv: Data("building_id\nb1\n".utf8)))
    }

    func testGeneratedTruthScoresPerfectlyAgainstItself() throws {
        let directory = try TestSupport.temporaryDirectory("self-score")
        try generateCity(config: CityConfig(buildings: 400, seed: 5), to: directory)
        let truth = try loadTruth(from: directory.appendingPathComponent("truth.csv"))
        let links = truth.values.compactMap { t in
            t.buildingId.map { LinkRecord(addressId: t.addressId, buildingId: $0, confidence: 0.99) }
        }
        let ids = try loadAddressIds(from: directory.appendingPathComponent("addresses.geojson"))
        let r = evaluate(links: links, truth: truth, addressIds: ids)
        XCTAssertEqual(r.overall.precision, 1)
        XCTAssertEqual(r.overall.recall, 1)
        XCTAssertEqual(r.overall.missed, 0)
        XCTAssertEqual(r.confidenceBands.last?.links, links.count)
        XCTAssertEqual(r.addressFile?.truthAddressesNotInFile, 0)
        XCTAssertEqual(r.addressFile?.fileAddressesNotInTruth, 0)
    }
}

final class CSVParserTests: XCTestCase {
    func testQuotedFieldsAndLineEnds() throws {
        let text = "\u{FEFF}a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\",\"two\nlines\"\n\nlast,,\n\"\",z"
        let rows = try CSVParser.rows(in: Data(text.utf8))
        XCTAssertEqual(rows, [["a", "b", "c"], ["x,1", "say \"hi\"", "two\nlines"], ["last", "", ""], ["", "z"]])
    }
}
