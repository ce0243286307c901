import Foundation
import XCTest
@testable import SyntheticCity

/// The dense profile at 100,000 buildings has the measured city's shape (issue 44): shares
/// of parcels within tolerance, ≥ 1.6 addresses per building, a complex of ≥ 1,000 units
/// at one point, and street names used more than once.
final class DenseShapeTests: XCTestCase {
    private static let city = try! TestSupport.generateInMemory(buildings: 100_000, seed: 1, profile: .dense)
    private var stats: CityStats { Self.city.stats }

    private func parcelShare(_ kinds: ParcelKind...) -> Double {
        Double(kinds.map { stats.parcelsByKind[$0.rawValue] ?? 0 }.reduce(0, +)) / Double(stats.parcels)
    }

    func testSharesOfParcelKinds() {
        XCTAssertEqual(parcelShare(.house, .houseGarageFront), 0.55, accuracy: 0.015, "detached houses")
        XCTAssertEqual(parcelShare(.houseGarageFront) / parcelShare(.house, .houseGarageFront), 0.12, accuracy: 0.01,
                       "houses behind a garage at the street")
        XCTAssertEqual(parcelShare(.townhouseRow), 0.17, accuracy: 0.01, "townhouse rows")
        XCTAssertEqual(parcelShare(.apartment), 0.10, accuracy: 0.01, "apartment blocks")
        XCTAssertEqual(parcelShare(.unaddressed, .vacantLot), 0.18, accuracy: 0.02, "unaddressed and vacant lots")
    }

    func testAtLeastOnePointSixAddressesPerBuilding() {
        XCTAssertEqual(Self.city.buildings.count, 100_000)
        XCTAssertGreaterThanOrEqual(Double(Self.city.addresses.count) / 100_000, 1.6)
        // Without the complex too: the shape does not rest on it.
        let outsideComplexes = Self.city.addresses.filter { $0.truth.kind != .complex }.count
        XCTAssertGreaterThanOrEqual(Double(outsideComplexes) / 100_000, 1.6)
    }

    func testAComplexOfAThousandUnitsOrMoreAtOnePoint() throws {
        let complexes = Dictionary(grouping: Self.city.addresses.filter { $0.truth.kind == .complex }) { $0.truth.buildingIndex! }
        XCTAssertEqual(complexes.count, 1)
        let units = try XCTUnwrap(complexes.values.first)
        XCTAssertGreaterThanOrEqual(units.count, 1_000)
        XCTAssertEqual(Set(units.map { "\($0.point.x),\($0.point.y)" }).count, 1, "one point")
        XCTAssertEqual(stats.complexes?.map(\.units), [units.count])
    }

    func testStreetNamesAreReusedAcrossTheCity() {
        let names = Set(Self.city.addresses.map(\.streetName))
        XCTAssertEqual(names.count, 100)
        XCTAssertEqual(stats.streetNames, 100)
        XCTAssertGreaterThan(stats.streets, 100)
        // A reused name stands in other postal districts; with the postal code every address is unique.
        let birch = Set(Self.city.addresses.filter { $0.streetName == "Birch Street" }.map(\.postalCode))
        XCTAssertGreaterThan(birch.count, 13, "Birch Street is in more places than its first run of districts")
        var seen: Set<String> = []
        for a in Self.city.addresses {
            XCTAssertTrue(seen.insert("\(a.houseNumber) \(a.unit) \(a.streetName) \(a.postalCode)").inserted, a.id)
        }
    }
}
