import Foundation
import XCTest
@testable import SyntheticCity

/// `generate --profile hard`: the same guarantees as the default city (exact count,
/// non-overlapping footprints, no point inside a building other than its own) plus
/// what each hard kind promises.
final class HardProfileTests: XCTestCase {
    private static let city = try! TestSupport.generateInMemory(buildings: 3000, seed: 5, profile: .hard)
    private var addresses: [SyntheticAddress] { Self.city.addresses }
    private var buildings: [SyntheticBuilding] { Self.city.buildings }

    private func building(_ a: SyntheticAddress) throws -> SyntheticBuilding { try Self.city.building(of: a) }

    private func byBuilding(_ kind: AddressTruthKind) -> [Int: [SyntheticAddress]] { Self.city.addressesByBuilding(kind) }

    private func nearestBuilding(_ p: Point) -> SyntheticBuilding {
        buildings.min { TestSupport.distanceToOutline(p, $0.ring) < TestSupport.distanceToOutline(p, $1.ring) }!
    }

    func testExactBuildingCountAndSequentialIds() {
        XCTAssertEqual(buildings.count, 3000)
        XCTAssertEqual(buildings.map(\.index), Array(1...3000))
        XCTAssertEqual(addresses.map(\.index), Array(1...addresses.count))
    }

    func testEveryKindAndPlacementOccurs() {
        XCTAssertEqual(Set(addresses.map(\.truth.kind)), Set(AddressTruthKind.hardProfileCases))
        XCTAssertEqual(Set(addresses.map(\.truth.placement)), Set(Placement.hardProfileCases))
        XCTAssertEqual(Set(buildings.map(\.kind)), Set(BuildingKind.hardProfileCases))
        XCTAssertEqual(Set(Self.city.stats.parcelsByKind.filter { $0.value > 0 }.keys), Set(ParcelKind.hardProfileCases.map(\.rawValue)))
        // The old kinds and placements stay, at lower shares.
        let share = { (p: Placement) in Double(self.addresses.filter { $0.truth.placement == p }.count) / Double(self.addresses.count) }
        XCTAssertGreaterThan(share(.inside), 0.1)
        XCTAssertGreaterThan(share(.streetEdge), 0.1)
    }

    func testOverlapCheckFindsOverlaps() {
        func square(_ i: Int, _ x: Double, _ y: Double, _ side: Double) -> SyntheticBuilding {
            SyntheticBuilding(index: i, kind: .house, ring: [Point(x, y), Point(x + side, y), Point(x + side, y + side), Point(x, y + side)],
                              height: 3, levels: 1)
        }
        XCTAssertEqual(TestSupport.overlappingPairs([square(1, 0, 0, 10), square(2, 5, 5, 10)]).count, 1)
        XCTAssertEqual(TestSupport.overlappingPairs([square(1, 0, 0, 10), square(2, 2, 2, 3)]).count, 1, "containment")
        XCTAssertEqual(TestSupport.overlappingPairs([square(1, 0, 0, 10), square(2, 0, 0, 10)]).count, 1, "identical")
        XCTAssertEqual(TestSupport.overlappingPairs([square(1, 0, 0, 10), square(2, 11, 0, 10)]).count, 0)
    }

    func testFootprintsDoNotOverlap() {
        XCTAssertEqual(TestSupport.overlappingPairs(buildings).map { "\($0.0)/\($0.1)" }, [])
    }

    func testDefaultCityFootprintsDoNotOverlap() throws {
        let city = try TestSupport.generateInMemory(buildings: 3000, seed: 5)
        XCTAssertEqual(TestSupport.overlappingPairs(city.buildings).map { "\($0.0)/\($0.1)" }, [])
        XCTAssertEqual(TestSupport.pointsInsideOtherBuildings(city), [])
    }

    func testNoAddressPointFallsInsideAnotherBuilding() {
        XCTAssertEqual(TestSupport.pointsInsideOtherBuildings(Self.city), [])
    }

    func testTruthKindsMatchBuildingKinds() throws {
        try Self.city.assertTruthKindsMatchBuildingKinds()
    }

    func testPlacementsMeanWhatTheySay() throws {
        for a in addresses where a.truth.buildingIndex != nil {
            let ring = try building(a).ring
            switch a.truth.placement {
            case .inside:
                XCTAssertTrue(TestSupport.contains(ring, a.point), a.id)
            case .outline:
                XCTAssertLessThan(TestSupport.distanceToOutline(a.point, ring), 1e-6, a.id)
            case .front, .streetDrift, .streetEdge, .garageFront, .sideStreet, .driveway:
                XCTAssertFalse(TestSupport.contains(ring, a.point), a.id)
                XCTAssertGreaterThan(TestSupport.distanceToOutline(a.point, ring), 0.2, a.id)
            case .parcelCentroid:
                break  // near the lot's centre: inside the building or behind it
            case .lot:
                XCTFail("lot placement on an addressed building: \(a.id)")
            }
        }
    }

    func testGarageStandsBetweenStreetAndHouse() throws {
        let addressed = addresses.filter { $0.truth.kind == .houseGarageFront }
        XCTAssertGreaterThan(addressed.count, 50)
        for a in addressed where a.truth.placement == .garageFront || a.truth.placement == .streetEdge {
            let nearest = nearestBuilding(a.point)
            XCTAssertEqual(nearest.kind, .garage, "\(a.id): the garage, not the house, is nearest")
            XCTAssertTrue((29.99...70.01).contains(TestSupport.signedArea(nearest.ring)), a.id)
            XCTAssertEqual(nearest.index, try building(a).index + 1, "the house's own garage")
        }
    }

    func testDuplexesHaveTwoNumberedHalves() {
        let duplexes = byBuilding(.duplex)
        XCTAssertGreaterThan(duplexes.count, 10)
        for (_, units) in duplexes {
            XCTAssertEqual(units.count, 2)
            let ordered = units.sorted { $0.houseNumber < $1.houseNumber }
            XCTAssertEqual(ordered[1].houseNumber, ordered[0].houseNumber + 2)
            XCTAssertEqual(ordered.map { $0.truth.unitIndex }, [0, 1])
            XCTAssertEqual(ordered.map { $0.truth.unitsInRow }, [2, 2])
            XCTAssertEqual(ordered[0].streetName, ordered[1].streetName)
            XCTAssertEqual(ordered[0].truth.placement == .streetEdge, ordered[1].truth.placement == .streetEdge)
        }
        XCTAssertTrue(duplexes.values.contains { $0[0].truth.placement == .streetEdge })
    }

    func testTownhouseRowsKeepTheirIndexAndSomeSitAtTheStreet() {
        let rows = byBuilding(.townhouseRow)
        XCTAssertGreaterThan(rows.count, 10)
        var atStreet = 0
        for (_, units) in rows {
            let ordered = units.sorted { $0.houseNumber < $1.houseNumber }
            XCTAssertEqual(ordered.map { $0.truth.unitIndex! }, Array(0..<units.count))
            if units.allSatisfy({ $0.truth.placement == .streetEdge }) { atStreet += 1 }
        }
        XCTAssertGreaterThan(atStreet, rows.count / 4)
        for a in addresses where a.truth.kind != .townhouseRow && a.truth.kind != .duplex {
            XCTAssertNil(a.truth.unitIndex, a.id)
        }
    }

    func testCornerBuildingsCarryAStreetAndAnAvenueAddress() {
        let corners = byBuilding(.corner)
        XCTAssertGreaterThan(corners.count, 20)
        for (_, two) in corners {
            XCTAssertEqual(two.count, 2)
            XCTAssertEqual(Set(two.map { $0.streetName.contains("Street") }), [true, false], "\(two.map(\.streetName))")
            let avenue = two.first { $0.streetName.contains("Avenue") }!
            XCTAssertEqual(avenue.houseNumber % 2, 1, "east side of the avenue is odd")
        }
    }

    func testAvenueNumbersStayUniqueWithCornerLots() {
        var seen: Set<String> = []
        for a in addresses where a.unit.isEmpty && a.truth.kind != .apartment {
            XCTAssertTrue(seen.insert("\(a.streetName) \(a.houseNumber)").inserted || a.truth.kind == .rearUnit,
                          "\(a.id) \(a.streetName) \(a.houseNumber)")
        }
    }

    func testRearUnitsStandBehindTheirFrontHouse() throws {
        let rears = addresses.filter { $0.truth.kind == .rearUnit }
        XCTAssertGreaterThan(rears.count, 30)
        var ownNumbers = 0, lettered = 0
        for rear in rears {
            let front = addresses[rear.index - 2]
            XCTAssertEqual(front.truth.kind, .frontHouse, rear.id)
            let rb = try building(rear), fb = try building(front)
            XCTAssertEqual(rb.index, fb.index + 1)
            XCTAssertLessThan(TestSupport.signedArea(rb.ring), TestSupport.signedArea(fb.ring), "rear unit is smaller")
            if rear.unit == "B" {
                XCTAssertEqual(rear.houseNumber, front.houseNumber)
                XCTAssertTrue(front.unit == "A" || front.unit.isEmpty)
                lettered += 1
            } else {
                XCTAssertEqual(rear.houseNumber, front.houseNumber + 2)
                ownNumbers += 1
            }
        }
        XCTAssertGreaterThan(ownNumbers, 5)
        XCTAssertGreaterThan(lettered, 5)
        // Driveway and street points of rear units: the front house is nearer than the rear unit.
        for rear in rears where rear.truth.placement == .streetEdge {
            XCTAssertNotEqual(nearestBuilding(rear.point).index, rear.truth.buildingIndex, rear.id)
        }
    }

    func testMultiNumberBuildingsCarryARunOfNumbers() {
        let blocks = byBuilding(.multiNumber)
        XCTAssertGreaterThan(blocks.count, 20)
        for (_, run) in blocks {
            XCTAssertTrue((3...6).contains(run.count))
            let numbers = run.map(\.houseNumber).sorted()
            XCTAssertEqual(numbers, Array(stride(from: numbers[0], through: numbers[0] + 2 * (run.count - 1), by: 2)))
            XCTAssertTrue(run.allSatisfy { $0.unit.isEmpty })
            XCTAssertEqual(Set(run.map(\.truth.placement)).count, 1)
        }
    }

    func testBuildingsAcrossTwoLotsCarryBothNumbers() {
        let spanning = byBuilding(.twoLot)
        XCTAssertGreaterThan(spanning.count, 20)
        for (_, two) in spanning {
            XCTAssertEqual(two.count, 2)
            XCTAssertEqual(abs(two[0].houseNumber - two[1].houseNumber), 2)
        }
    }

    func testVacantLotsBesideUnaddressedBuildings() {
        let vacant = addresses.filter { $0.truth.kind == .vacantBesideBuilding }
        XCTAssertGreaterThan(vacant.count, 30)
        let addressedIndexes = Set(addresses.compactMap(\.truth.buildingIndex))
        for a in vacant {
            XCTAssertNil(a.truth.buildingIndex)
            let nearest = nearestBuilding(a.point)
            XCTAssertTrue(nearest.kind == .unaddressed || nearest.kind == .shed, "\(a.id) nearest \(nearest.kind)")
            XCTAssertFalse(addressedIndexes.contains(nearest.index))
            XCTAssertLessThanOrEqual(TestSupport.distanceToOutline(a.point, nearest.ring), 6.01, a.id)
        }
    }

    func testHouseNumbersRiseAlongEachStreetSide() {
        // Corner lots' avenue numbers are reserved ahead (both sides of a street take one), so skip them.
        var lastNumber: [String: Int] = [:]
        for a in addresses where !(a.truth.kind == .corner && a.streetName.contains("Avenue")) {
            let key = a.streetName + (a.houseNumber % 2 == 1 ? " odd" : " even")
            if let previous = lastNumber[key] { XCTAssertGreaterThanOrEqual(a.houseNumber, previous, a.id) }
            lastNumber[key] = a.houseNumber
        }
    }

    func testHardFilesAreDeterministicAndDifferFromDefault() throws {
        let first = try TestSupport.temporaryDirectory("hard-1")
        let second = try TestSupport.temporaryDirectory("hard-2")
        let plain = try TestSupport.temporaryDirectory("hard-default")
        let s1 = try generateCity(config: CityConfig(buildings: 600, seed: 9, profile: .hard), to: first)
        try generateCity(config: CityConfig(buildings: 600, seed: 9, profile: .hard), to: second)
        try generateCity(config: CityConfig(buildings: 600, seed: 9), to: plain)
        XCTAssertEqual(s1.profile, "hard")
        for name in [CityFileWriter.buildingsFile, CityFileWriter.addressesFile, CityFileWriter.truthFile, CityFileWriter.summaryFile] {
            let a = try Data(contentsOf: first.appendingPathComponent(name))
            XCTAssertEqual(a, try Data(contentsOf: second.appendingPathComponent(name)), name)
            XCTAssertNotEqual(a, try Data(contentsOf: plain.appendingPathComponent(name)), name)
        }
        // truth.csv keeps its columns; evaluate groups by the new kinds and placements.
        let truth = try loadTruth(from: first.appendingPathComponent(CityFileWriter.truthFile))
        let perfect = truth.values.compactMap { t in
            t.buildingId.map { LinkRecord(addressId: t.addressId, buildingId: $0, confidence: 0.99) }
        }
        let result = evaluate(links: perfect, truth: truth)
        XCTAssertEqual(result.overall.precision, 1)
        XCTAssertEqual(result.overall.recall, 1)
        XCTAssertTrue(result.byKind.contains { $0.name == "duplex" && $0.correct > 0 })
        XCTAssertTrue(result.byPlacement.contains { $0.name == "street_edge" && $0.correct > 0 })
    }

    func testUnitScoringOfHardKinds() {
        let truth = Dictionary(uniqueKeysWithValues: addresses.map { a in
            (a.id, TruthRecord(addressId: a.id, buildingId: a.truth.buildingIndex.map(IdFormat.building), kind: a.truth.kind.rawValue,
                               placement: a.truth.placement.rawValue, unitIndex: a.truth.unitIndex, unitsInRow: a.truth.unitsInRow))
        })
        // Slice every row and every duplex into its units: rows score exactly, duplexes are not scored.
        let sliced = addresses.filter { $0.truth.kind == .townhouseRow || $0.truth.kind == .duplex }
        var units = sliced.map { a in
            UnitRecord(id: "u" + a.id, buildingId: IdFormat.building(a.truth.buildingIndex!), addressId: a.id, unitIndex: a.truth.unitIndex!)
        }
        var score = evaluateUnits(units: units, links: [], truth: truth)
        let rows = Set(addresses.filter { $0.truth.kind == .townhouseRow }.map { $0.truth.buildingIndex! }).count
        XCTAssertEqual(score.townhouseRows, rows)
        XCTAssertEqual(score.rowsSplitExactly, rows)
        let singleDwellings: Set<AddressTruthKind> = [.house, .houseGarageFront, .corner, .frontHouse, .rearUnit]
        XCTAssertEqual(score.houses, Set(addresses.filter { singleDwellings.contains($0.truth.kind) }.map { $0.truth.buildingIndex! }).count)
        XCTAssertEqual(score.housesSplit, 0)
        // Splitting a corner building counts as splitting a house.
        let corner = addresses.first { $0.truth.kind == .corner }!
        units.append(UnitRecord(id: "ux", buildingId: IdFormat.building(corner.truth.buildingIndex!), addressId: corner.id, unitIndex: 0))
        score = evaluateUnits(units: units, links: [], truth: truth)
        XCTAssertEqual(score.housesSplit, 1)
    }
}
