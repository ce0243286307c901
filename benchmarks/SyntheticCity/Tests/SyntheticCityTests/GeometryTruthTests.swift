import Foundation
import XCTest
@testable import SyntheticCity

/// Checks, in local metres, that every placement means what truth.csv says it means.
final class GeometryTruthTests: XCTestCase {
    private static let city = try! TestSupport.generateInMemory(buildings: 1500, seed: 11)
    private var sink: TestSupport.InMemoryCity { Self.city }

    private func ring(of address: SyntheticAddress) throws -> [Point] {
        let index = try XCTUnwrap(address.truth.buildingIndex)
        let building = sink.buildings[index - 1]
        XCTAssertEqual(building.index, index)
        return building.ring
    }

    func testExactBuildingCountAndSequentialIds() {
        XCTAssertEqual(sink.buildings.count, 1500)
        XCTAssertEqual(Self.city.stats.buildings, 1500)
        XCTAssertEqual(sink.buildings.map(\.index), Array(1...1500))
        XCTAssertEqual(sink.addresses.map(\.index), Array(1...sink.addresses.count))
        XCTAssertEqual(sink.buildings.first?.id, "b0000001")
        XCTAssertEqual(sink.addresses.first?.id, "a0000001")
    }

    func testInsidePointsAreInsideTheirBuilding() throws {
        let inside = sink.addresses.filter { $0.truth.placement == .inside }
        XCTAssertGreaterThan(inside.count, 100)
        for a in inside {
            XCTAssertTrue(TestSupport.contains(try ring(of: a), a.point), a.id)
        }
    }

    func testOutlinePointsLieOnTheOutline() throws {
        let outline = sink.addresses.filter { $0.truth.placement == .outline }
        XCTAssertGreaterThan(outline.count, 50)
        for a in outline {
            XCTAssertLessThan(TestSupport.distanceToOutline(a.point, try ring(of: a)), 1e-6, a.id)
        }
    }

    func testFrontAndDriftPointsAreOutsideTheirBuilding() throws {
        for a in sink.addresses where a.truth.placement == .front || a.truth.placement == .streetDrift {
            let r = try ring(of: a)
            XCTAssertFalse(TestSupport.contains(r, a.point), a.id)
            XCTAssertGreaterThan(TestSupport.distanceToOutline(a.point, r), 0.4, a.id)
        }
    }

    func testNoAddressPointFallsInsideAnotherBuilding() {
        // Truth stays meaningful: a point is never inside a building other than its own.
        for a in sink.addresses {
            for b in sink.buildings where b.index != a.truth.buildingIndex {
                XCTAssertFalse(TestSupport.contains(b.ring, a.point), "\(a.id) inside \(b.id)")
            }
        }
    }

    func testRingsAreCounterClockwiseAndShapesVary() {
        var vertexCounts: [BuildingKind: Set<Int>] = [:]
        for b in sink.buildings {
            XCTAssertGreaterThan(TestSupport.signedArea(b.ring), 0, b.id)
            vertexCounts[b.kind, default: []].insert(b.ring.count)
            XCTAssertTrue((2.0...30.0).contains(b.height), b.id)
            XCTAssertGreaterThanOrEqual(b.levels, 1)
        }
        XCTAssertTrue(vertexCounts[.house]!.contains(6), "some houses are L-shaped")
        XCTAssertTrue(vertexCounts[.townhouseRow]!.isSuperset(of: [4]))
        XCTAssertFalse(vertexCounts[.townhouseRow]!.isDisjoint(with: [6, 8]), "some rows have a jog")
        XCTAssertTrue(vertexCounts[.townhouseRow]!.isSubset(of: [4, 6, 8]))
        XCTAssertEqual(vertexCounts[.garage], [4])
    }

    func testAccessoryAndApartmentSizes() {
        for b in sink.buildings {
            let area = TestSupport.signedArea(b.ring)
            switch b.kind {
            case .garage: XCTAssertTrue((17.99...40.01).contains(area), "\(b.id) \(area)")
            case .shed: XCTAssertTrue((3.99...15.01).contains(area), "\(b.id) \(area)")
            case .apartment: XCTAssertTrue((240 - 0.01...1200.01).contains(area), "\(b.id) \(area)")
            default: break
            }
        }
    }

    func testTownhouseUnitsAreIndexedAndNumberedAlongTheRow() {
        let rows = Dictionary(grouping: sink.addresses.filter { $0.truth.kind == .townhouseRow }) { $0.truth.buildingIndex! }
        XCTAssertGreaterThan(rows.count, 5)
        for (_, units) in rows {
            let size = units[0].truth.unitsInRow!
            XCTAssertTrue((3...8).contains(size))
            XCTAssertEqual(units.count, size)
            let ordered = units.sorted { $0.houseNumber < $1.houseNumber }
            XCTAssertEqual(ordered.map { $0.truth.unitIndex! }, Array(0..<size), "unit_index counts from the lowest number")
            for (i, unit) in ordered.enumerated() {
                XCTAssertEqual(unit.truth.unitsInRow, size)
                XCTAssertEqual(unit.houseNumber, ordered[0].houseNumber + 2 * i, "consecutive numbers on one side")
                XCTAssertEqual(unit.streetName, ordered[0].streetName)
            }
        }
        for a in sink.addresses where a.truth.kind != .townhouseRow {
            XCTAssertNil(a.truth.unitIndex)
            XCTAssertNil(a.truth.unitsInRow)
        }
    }

    func testApartmentUnitsShareNumberAndCluster() {
        let blocks = Dictionary(grouping: sink.addresses.filter { $0.truth.kind == .apartment }) { $0.truth.buildingIndex! }
        XCTAssertGreaterThan(blocks.count, 3)
        for (_, units) in blocks {
            XCTAssertGreaterThanOrEqual(units.count, 2)
            XCTAssertEqual(Set(units.map(\.houseNumber)).count, 1, "one house number per block")
            XCTAssertEqual(Set(units.map(\.unit)).count, units.count, "unit labels differ")
            XCTAssertFalse(units.contains { $0.unit.isEmpty })
            for a in units {
                for b in units {
                    let d = ((a.point.x - b.point.x) * (a.point.x - b.point.x) + (a.point.y - b.point.y) * (a.point.y - b.point.y)).squareRoot()
                    XCTAssertLessThanOrEqual(d, 1.0 + 1e-9)
                }
            }
        }
    }

    func testHouseNumbersRiseWithParityPerSide() {
        // Addresses of one parcel share a number; across parcels, numbers on a street side rise.
        var lastNumber: [String: Int] = [:]
        for a in sink.addresses {
            let key = a.streetName + (a.houseNumber % 2 == 1 ? " odd" : " even")
            if let previous = lastNumber[key] { XCTAssertGreaterThanOrEqual(a.houseNumber, previous, a.id) }
            lastNumber[key] = a.houseNumber
        }
        XCTAssertTrue(lastNumber.keys.contains { $0.hasSuffix("odd") })
        XCTAssertTrue(lastNumber.keys.contains { $0.hasSuffix("even") })
    }

    func testPlacementMixIsRoughlyAsDocumented() {
        let addressed = sink.addresses.filter { $0.truth.kind == .house || $0.truth.kind == .townhouseRow }
        let share = { (p: Placement) in Double(addressed.filter { $0.truth.placement == p }.count) / Double(addressed.count) }
        XCTAssertEqual(share(.inside), 0.40, accuracy: 0.07)
        XCTAssertEqual(share(.outline), 0.20, accuracy: 0.06)
        XCTAssertEqual(share(.front), 0.25, accuracy: 0.06)
        XCTAssertEqual(share(.streetDrift), 0.15, accuracy: 0.05)
    }
}
