import Foundation
import XCTest
@testable import SyntheticCity

/// `generate --profile dense` on a small city: the guarantees of every profile (exact
/// count, no overlaps, no point inside another building, exact truth) and what each
/// dense kind promises. The shares are checked at 100k in DenseShapeTests.
final class DenseProfileTests: XCTestCase {
    private static let city = try! TestSupport.generateInMemory(buildings: 3000, seed: 5, profile: .dense)
    private var addresses: [SyntheticAddress] { Self.city.addresses }
    private var buildings: [SyntheticBuilding] { Self.city.buildings }

    private func building(_ a: SyntheticAddress) throws -> SyntheticBuilding { try Self.city.building(of: a) }

    private func byBuilding(_ kind: AddressTruthKind) -> [Int: [SyntheticAddress]] { Self.city.addressesByBuilding(kind) }

    func testExactBuildingCountAndEveryDenseKind() {
        XCTAssertEqual(buildings.map(\.index), Array(1...3000))
        XCTAssertEqual(addresses.map(\.index), Array(1...addresses.count))
        XCTAssertEqual(Set(addresses.map(\.truth.kind)), Set(AddressTruthKind.denseProfileCases))
        XCTAssertEqual(Set(addresses.map(\.truth.placement)), Set(Placement.denseProfileCases))
        XCTAssertEqual(Set(buildings.map(\.kind)), Set(BuildingKind.denseProfileCases))
        XCTAssertEqual(Set(Self.city.stats.parcelsByKind.filter { $0.value > 0 }.keys), Set(ParcelKind.denseProfileCases.map(\.rawValue)))
    }

    func testFootprintsDoNotOverlapAndNoPointIsInsideAnotherBuilding() {
        XCTAssertEqual(TestSupport.overlappingPairs(buildings).map { "\($0.0)/\($0.1)" }, [])
        XCTAssertEqual(TestSupport.pointsInsideOtherBuildings(Self.city), [])
    }

    func testTruthIsTheDwelling() throws {
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
            default:
                XCTAssertFalse(TestSupport.contains(ring, a.point), a.id)
                XCTAssertGreaterThan(TestSupport.distanceToOutline(a.point, ring), 0.2, a.id)
            }
        }
    }

    /// The garage stands between the street and the house; the point is between the street and the garage.
    func testGarageAtTheStreetWithThePointBeforeIt() throws {
        let fronted = addresses.filter { $0.truth.kind == .houseGarageFront }
        XCTAssertGreaterThan(fronted.count, 50)
        for a in fronted {
            XCTAssertEqual(a.truth.placement, .garageFront, a.id)
            let house = try building(a), garage = buildings[house.index]  // the garage follows its house
            XCTAssertEqual(garage.kind, .garage, a.id)
            XCTAssertEqual(TestSupport.signedArea(garage.ring), 36, accuracy: 1e-6, "6 × 6 m")
            // Away from the street: from the garage's centre towards the house's (the blocks are axis-aligned).
            let g = Box(garage.ring), h = Box(house.ring)
            let alongX = abs(h.centreY - g.centreY) < abs(h.centreX - g.centreX)
            let sign: Double = (alongX ? h.centreX - g.centreX : h.centreY - g.centreY) > 0 ? 1 : -1
            func away(_ p: Point) -> Double { sign * (alongX ? p.x : p.y) }
            func across(_ p: Point) -> Double { alongX ? p.y : p.x }
            let garageFront = garage.ring.map(away).min()!, garageBack = garage.ring.map(away).max()!
            XCTAssertEqual(house.ring.map(away).min()! - garageBack, 9, accuracy: 1e-6, "house 9 m behind the garage")
            XCTAssertLessThan(away(a.point), garageFront - 0.29, "\(a.id): the point is before the garage door")
            XCTAssertTrue((garage.ring.map(across).min()!...garage.ring.map(across).max()!).contains(across(a.point)), a.id)
            let toGarage = TestSupport.distanceToOutline(a.point, garage.ring)
            XCTAssertLessThan(toGarage, TestSupport.distanceToOutline(a.point, house.ring), "\(a.id): the garage is nearer than the house")
        }
    }

    func testApartmentUnitsShareOnePoint() {
        let blocks = byBuilding(.apartment)
        XCTAssertGreaterThan(blocks.count, 50)
        for (index, units) in blocks {
            XCTAssertTrue((2...8).contains(units.count), "b\(index): \(units.count) units")
            XCTAssertEqual(Set(units.map { "\($0.point.x),\($0.point.y)" }).count, 1, "b\(index)")
            XCTAssertEqual(Set(units.map(\.houseNumber)).count, 1)
            XCTAssertEqual(Set(units.map(\.unit)).count, units.count)
            let ring = buildings[index - 1].ring
            let box = Box(ring), sides = [box.maxX - box.minX, box.maxY - box.minY].sorted()
            XCTAssertTrue((17.99...26.01).contains(sides[0]) && (29.99...45.01).contains(sides[1]), "b\(index): \(sides)")
        }
    }

    func testRowsOfThreeToSevenWithConsecutiveNumbers() {
        let rows = byBuilding(.townhouseRow)
        XCTAssertGreaterThan(rows.count, 50)
        for (_, units) in rows {
            XCTAssertTrue((3...7).contains(units.count))
            let ordered = units.sorted { $0.houseNumber < $1.houseNumber }
            XCTAssertEqual(ordered.map(\.houseNumber), Array(stride(from: ordered[0].houseNumber, through: ordered[0].houseNumber + 2 * (units.count - 1), by: 2)))
            XCTAssertEqual(ordered.map { $0.truth.unitIndex! }, Array(0..<units.count))
        }
    }

    func testComplexUnitsShareOnePointAndAreListed() throws {
        let complexes = byBuilding(.complex)
        XCTAssertEqual(complexes.count, 1)
        let (index, units) = try XCTUnwrap(complexes.first)
        XCTAssertEqual(units.count, ComplexSchedule.unitCap(target: 3000), "a small city caps the complex at half its buildings")
        XCTAssertEqual(Set(units.map { "\($0.point.x),\($0.point.y)" }).count, 1)
        XCTAssertEqual(Set(units.map(\.houseNumber)).count, 1)
        XCTAssertEqual(units.map(\.unit), (1...units.count).map(String.init))
        XCTAssertEqual(buildings[index - 1].kind, .apartment)
        XCTAssertEqual(Self.city.stats.complexes, [ComplexRecord(buildingId: IdFormat.building(index), units: units.count)])
    }

    func testUnitScoringKeepsAComplexWhole() throws {
        let truth = Dictionary(uniqueKeysWithValues: addresses.map { a in
            (a.id, TruthRecord(addressId: a.id, buildingId: a.truth.buildingIndex.map(IdFormat.building), kind: a.truth.kind.rawValue,
                               placement: a.truth.placement.rawValue, unitIndex: a.truth.unitIndex, unitsInRow: a.truth.unitsInRow))
        })
        let complex = try XCTUnwrap(addresses.first { $0.truth.kind == .complex })
        let split = [UnitRecord(id: "u1", buildingId: IdFormat.building(complex.truth.buildingIndex!), addressId: complex.id, unitIndex: 0)]
        let score = evaluateUnits(units: split, links: [], truth: truth)
        XCTAssertEqual(score.apartmentBlocks, byBuilding(.apartment).count + 1, "the complex counts as an apartment block")
        XCTAssertEqual(score.apartmentBlocksSplit, 1)
        XCTAssertEqual(score.houses, Set(addresses.filter { $0.truth.kind == .house || $0.truth.kind == .houseGarageFront }
            .map { $0.truth.buildingIndex! }).count)
    }

    func testHouseNumbersRiseAlongEachStreetSide() {
        var lastNumber: [String: Int] = [:]
        for a in addresses {
            let key = a.streetName + (a.houseNumber % 2 == 1 ? " odd" : " even")
            if let previous = lastNumber[key] { XCTAssertGreaterThanOrEqual(a.houseNumber, previous, a.id) }
            lastNumber[key] = a.houseNumber
        }
    }

    func testComplexScheduleScalesWithTheCity() {
        for seed: UInt64 in 1...40 {
            for (target, count) in [(100_000, 1), (1_000_000, 5), (10_000_000, 50)] {
                var schedule = ComplexSchedule(target: target, seed: seed)
                var units: [Int] = []
                while let u = schedule.next(buildings: target) { units.append(u); schedule.placed() }
                XCTAssertEqual(units.count, count, "seed \(seed), \(target)")
                XCTAssertTrue(units.allSatisfy { ComplexSchedule.units.contains($0) }, "\(units)")
            }
        }
        // Each complex is due within the first 80% of its share of the city.
        var schedule = ComplexSchedule(target: 1_000_000, seed: 3)
        for share in 0..<5 {
            XCTAssertNil(schedule.next(buildings: share * 200_000 - 1), "not due before its share starts")
            XCTAssertNotNil(schedule.next(buildings: share * 200_000 + 160_000))
            schedule.placed()
        }
    }

    func testDenseFilesScorePerfectlyAgainstTheirTruth() throws {
        let dir = try TestSupport.temporaryDirectory("dense-evaluate")
        let summary = try generateCity(config: CityConfig(buildings: 1500, seed: 9, profile: .dense), to: dir)
        XCTAssertEqual(summary.profile, "dense")
        let truth = try loadTruth(from: dir.appendingPathComponent(CityFileWriter.truthFile))
        XCTAssertEqual(truth.count, summary.counts.addresses)
        let perfect = truth.values.compactMap { t in
            t.buildingId.map { LinkRecord(addressId: t.addressId, buildingId: $0, confidence: 0.99) }
        }
        let result = evaluate(links: perfect, truth: truth)
        XCTAssertEqual(result.overall.precision, 1)
        XCTAssertEqual(result.overall.recall, 1)
        XCTAssertTrue(result.byKind.contains { $0.name == "complex" && $0.correct == 750 })
        XCTAssertTrue(result.byKind.contains { $0.name == "house_garage_front" && $0.correct > 0 })
        XCTAssertTrue(result.byPlacement.contains { $0.name == "garage_front" && $0.correct > 0 })
        let city = try TestSupport.jsonObject(dir.appendingPathComponent(CityFileWriter.summaryFile))
        let counts = try XCTUnwrap(city["counts"] as? [String: Any])
        XCTAssertEqual((counts["complexes"] as? [[String: Any]])?.count, 1)
        XCTAssertNotNil(counts["streetNames"] as? Int)
    }
}

/// Axis-aligned bounds of a ring.
struct Box {
    var minX, minY, maxX, maxY: Double
    init(_ ring: [Point]) {
        minX = ring.map(\.x).min()!; maxX = ring.map(\.x).max()!
        minY = ring.map(\.y).min()!; maxY = ring.map(\.y).max()!
    }
    var centreX: Double { (minX + maxX) / 2 }
    var centreY: Double { (minY + maxY) / 2 }
}
