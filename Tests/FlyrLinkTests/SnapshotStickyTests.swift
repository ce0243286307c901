import XCTest
@testable import FlyrLink

/// Sticky links: an address keeps its previous building unless the new one is clearly better.
final class SnapshotStickyTests: XCTestCase {
    typealias Proposal = ProximityMatcher.Proposal

    func proximity(_ b: Int, _ d: Double) -> AddressSurroundings.Candidate {
        .init(building: b, distance: d, nearestPoint: Point2(x: d, y: 0))
    }

    func testProximityKeepsThePreviousBuildingWithinTheMargin() {
        var s = AddressSurroundings()
        s.nearby = [proximity(1, 3.0), proximity(0, 4.5), proximity(2, 9.0)]
        let accessory = [false, false, false]
        var options = LinkOptions()
        options.stickyMargin = 2
        var proposals = [ProximityMatcher.propose(s, accessory: accessory)]
        XCTAssertEqual(proposals[0]?.building, 1)
        XCTAssertEqual(StickyLinks.apply(&proposals, surroundings: [0: s], previous: [0], accessory: accessory, options: options), 1)
        XCTAssertEqual(proposals[0]?.building, 0)
        XCTAssertEqual(proposals[0]?.distance, 4.5)
        XCTAssertEqual(proposals[0]?.method, .proximity)
        XCTAssertEqual(proposals[0]?.alternativeDistance, 3.0)

        // Better by more than the margin: the new building wins.
        options.stickyMargin = 1
        proposals = [ProximityMatcher.propose(s, accessory: accessory)]
        XCTAssertEqual(StickyLinks.apply(&proposals, surroundings: [0: s], previous: [0], accessory: accessory, options: options), 0)
        XCTAssertEqual(proposals[0]?.building, 1)
        // The previous building is gone or out of reach: nothing to keep.
        proposals = [ProximityMatcher.propose(s, accessory: accessory)]
        StickyLinks.apply(&proposals, surroundings: [0: s], previous: [7], accessory: accessory, options: options)
        XCTAssertEqual(proposals[0]?.building, 1)
    }

    func testContainmentKeepsThePreviousBuildingOnlyWhileItStillCovers() {
        let options = LinkOptions()
        var s = AddressSurroundings()
        s.covering = [2, 5]
        var proposals = [ProximityMatcher.propose(s, accessory: [Bool](repeating: false, count: 6))]
        XCTAssertEqual(proposals[0]?.building, 2)
        StickyLinks.apply(&proposals, surroundings: [0: s], previous: [5], accessory: [Bool](repeating: false, count: 6), options: options)
        XCTAssertEqual(proposals[0]?.building, 5)
        XCTAssertEqual(proposals[0]?.method, .exact)
        XCTAssertEqual(proposals[0]?.coveringCount, 2)

        // Previously linked by proximity to a building that no longer covers: containment wins.
        s.covering = [2]
        s.nearby = []
        proposals = [ProximityMatcher.propose(s, accessory: [Bool](repeating: false, count: 6))]
        StickyLinks.apply(&proposals, surroundings: [0: s], previous: [5], accessory: [Bool](repeating: false, count: 6), options: options)
        XCTAssertEqual(proposals[0]?.building, 2)
    }

    func testAnAccessoryDoesNotKeepAnAddressFromItsMainBuilding() {
        let options = LinkOptions()
        var s = AddressSurroundings()
        s.nearby = [proximity(0, 5.0), proximity(1, 6.0)]
        let accessory = [false, true]
        var proposals = [ProximityMatcher.propose(s, accessory: accessory)]
        StickyLinks.apply(&proposals, surroundings: [0: s], previous: [1], accessory: accessory, options: options)
        XCTAssertEqual(proposals[0]?.building, 0)
    }

    /// Through the pipeline: an address 2.2 m from A and 1.8 m from B stays on A when it was on A.
    /// (z sees A first: were A nobody's nearest, x would go to it fresh, B being y's too.)
    func testThePipelineHonoursPreviousLinks() throws {
        var scene = TownhouseTests.Scene()
        scene.buildings.append(("A", TownhouseTests.rect(0, 0, 10, 10)))
        scene.buildings.append(("B", TownhouseTests.rect(14, 0, 24, 10)))
        scene.addresses.append(("x", "1", "Mill Lane", nil, 12.2, 5))
        scene.addresses.append(("y", "3", "Mill Lane", nil, 30, 5))
        scene.addresses.append(("z", "5", "Mill Lane", nil, -2, 5))
        let dir = TestPaths.temporaryDirectory(self)
        let (b, a) = try scene.write(to: dir)
        var options = RunOptions(buildings: SourceSpec(location: b), addresses: SourceSpec(location: a), output: dir.appendingPathComponent("out").path)
        func building(of id: String, _ run: LinkRun) -> String? {
            let i = run.addresses.firstIndex { $0.id == id }!
            return run.linkOfAddress[i].map { run.buildings[run.links[$0].buildingIndex].id }
        }
        let fresh = try LinkPipeline(options: options).run()
        XCTAssertEqual(building(of: "x", fresh), "B")
        options.previousLinks = ["x": "A", "y": "A"]
        let sticky = try LinkPipeline(options: options).run()
        XCTAssertEqual(building(of: "x", sticky), "A")
        XCTAssertNotEqual(building(of: "y", sticky), "A", "y is 6 m from B and 20 m from A: A is not kept")
        options.link.stickyMargin = 0.1
        XCTAssertEqual(building(of: "x", try LinkPipeline(options: options).run()), "B")
    }
}
