import XCTest
@testable import FlyrLink

/// Many addresses at one place (an apartment complex's units sharing one point) cost in proportion
/// to their number: a candidate's features read a crowded building's sorted lists, not every other
/// address that sees it, and the street sides are found once per point, street and number. Not
/// timed: the work is counted (`WorkCount`, debug builds), and the sorted lists are checked to give
/// the loop's features to the bit.
final class DensityCostTests: XCTestCase {
    typealias Scene = TownhouseTests.Scene

    /// A street of houses with a complex among them: `units` addresses at one point in front of it,
    /// one number, one street, each its own unit.
    static func complexStreet(units: Int) -> Scene {
        var scene = Scene()
        for k in 0..<20 {
            let x = 15 * Double(k)
            scene.buildings.append(("h\(k)", TownhouseTests.rect(x, 0, x + 10, 10)))
            scene.addresses.append(("a\(k)", String(2 * k + 1), "Mill Road", nil, x + 5, -3))
        }
        scene.buildings.append(("complex", TownhouseTests.rect(0, 20, 45, 45)))
        scene.buildings.append(("garage", TownhouseTests.rect(50, 20, 56, 26)))
        for u in 0..<units { scene.addresses.append(("u\(u)", "100", "Mill Road", String(u + 1), 22, 17)) }
        return scene
    }

    /// The evidence (every candidate's features) and links of a run, read as bytes.
    func evidenceAndLinks(buildings: String, addresses: String, threshold: Int?) throws -> (evidence: Data, links: Data) {
        let dir = TestPaths.temporaryDirectory(self)
        var options = RunOptions(buildings: SourceSpec(location: buildings), addresses: SourceSpec(location: addresses),
                                 output: dir.appendingPathComponent("out").path)
        options.threads = 2
        options.evidencePath = dir.appendingPathComponent("evidence.csv").path
        CrowdedBuildings.thresholdInTests = threshold
        defer { CrowdedBuildings.thresholdInTests = nil }
        let run = try LinkPipeline(options: options).run()
        try RunWriter.write(run)
        return (try Data(contentsOf: URL(fileURLWithPath: options.evidencePath!)),
                try Data(contentsOf: dir.appendingPathComponent("out/links.csv")))
    }

    func testSortedListsGiveTheLoopsFeaturesToTheBit() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let (complexBuildings, complexAddresses) = try Self.complexStreet(units: 300).write(to: dir)
        let sets = [(complexBuildings, complexAddresses),
                    (try TestPaths.sharedData("la_dev/buildings.geojson"), try TestPaths.sharedData("la_dev/addresses.geojson")),
                    (try TestPaths.sharedData("dk_roadpoints/buildings.geojson"), try TestPaths.sharedData("dk_roadpoints/addresses.geojson")),
                    (TestPaths.helsinkiBuildings, TestPaths.helsinkiAddresses)]
        for (buildings, addresses) in sets {
            let looped = try evidenceAndLinks(buildings: buildings, addresses: addresses, threshold: .max)
            let sorted = try evidenceAndLinks(buildings: buildings, addresses: addresses, threshold: 1)
            let mixed = try evidenceAndLinks(buildings: buildings, addresses: addresses, threshold: nil)
            XCTAssertGreaterThan(looped.evidence.count, 1000, addresses)
            XCTAssertTrue(looped.evidence == sorted.evidence, "every building from sorted lists: \(addresses)")
            XCTAssertTrue(looped.evidence == mixed.evidence, "crowded buildings from sorted lists: \(addresses)")
            XCTAssertTrue(looped.links == sorted.links && looped.links == mixed.links, addresses)
        }
    }

    /// The work of a run of the complex street with `units` units, as counted.
    func work(units: Int) throws -> (otherAddresses: Int, streetNeighbours: Int) {
        let dir = TestPaths.temporaryDirectory(self)
        let (buildings, addresses) = try Self.complexStreet(units: units).write(to: dir)
        var options = RunOptions(buildings: SourceSpec(location: buildings), addresses: SourceSpec(location: addresses),
                                 output: dir.appendingPathComponent("out").path)
        options.threads = 2
        WorkCount.reset()
        let run = try LinkPipeline(options: options).run()
        XCTAssertEqual(run.addresses.count, 20 + units)
        return (WorkCount.otherAddresses.load(ordering: .relaxed), WorkCount.streetNeighbours.load(ordering: .relaxed))
    }

    func testTheWorkGrowsInProportionToTheUnitsAtOnePoint() throws {
        let small = try work(units: 1_000), large = try work(units: 16_000)
        // Sixteen times the units: about sixteen times the work (k² would be 256 times).
        for (name, s, l) in [("other addresses read", small.otherAddresses, large.otherAddresses),
                             ("street neighbours visited", small.streetNeighbours, large.streetNeighbours)] {
            XCTAssertGreaterThan(s, 1_000, name)
            XCTAssertLessThanOrEqual(Double(l) / Double(s), 16 * 1.5, "\(name): \(s) at 1,000 units, \(l) at 16,000")
        }
    }
}
