import XCTest
@testable import FlyrLink

/// Bad input: either one clear line on stderr and a non-zero exit, or a reject row while the run
/// goes on. No address is ever lost.
final class BadInputTests: XCTestCase {
    func runFixtures() throws -> LinkRun {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        var options = RunOptions(buildings: SourceSpec(location: TestPaths.fixture("bad_buildings.geojson")),
                                 addresses: SourceSpec(location: TestPaths.fixture("bad_addresses.geojson")),
                                 output: out)
        options.threads = 2
        return try LinkPipeline(options: options).run()
    }

    func testBadBuildingsAreRejectedOrRepairedWithReasons() throws {
        let run = try runFixtures()
        let rejects = Dictionary(grouping: run.rejects.filter { $0.layer == "buildings" }, by: { $0.sourceRow })
        XCTAssertEqual(rejects[2]?.first?.reason, "no geometry")
        XCTAssertTrue(rejects[3]?.first?.reason.contains("empty") ?? false, "\(rejects[3] ?? [])")
        XCTAssertTrue(rejects[5]?.first?.reason.contains("point") ?? false)
        XCTAssertTrue(rejects[6]?.first?.reason.contains("LineString") ?? false)
        XCTAssertTrue(rejects[7]?.first?.reason.contains("duplicate id") ?? false)
        XCTAssertTrue(rejects[9]?.first?.reason.contains("degenerate") ?? false)
        XCTAssertTrue(rejects[10]?.first?.reason.contains("outside the valid range") ?? false)
        // A ring that runs back along itself: nothing left after MakeValid. The reject names its
        // row and id (read back from the compressed rows), and the rows kept are the others, whole.
        XCTAssertTrue(rejects[11]?.first?.reason.contains("no area left after MakeValid") ?? false, "\(rejects[11] ?? [])")
        XCTAssertEqual(rejects[11]?.first?.id, "flat")
        XCTAssertEqual(run.buildings.map(\.sourceRow).sorted(), [1, 4, 8])
        XCTAssertEqual(run.buildings.first { $0.sourceRow == 1 }?.height, 7.5)
        // The bowtie is repaired, not rejected; the row without an id gets a UUIDv5.
        XCTAssertNil(rejects[4])
        XCTAssertEqual(run.report.counts.buildingsRepaired, 1)
        XCTAssertTrue(run.buildings.contains { $0.id == "bowtie" })
        let generated = run.buildings.first { $0.sourceRow == 8 }
        XCTAssertNotNil(generated.map { UUIDv5.isValid($0.id) })
        XCTAssertEqual(run.buildings.count, 3)
    }

    func testBadAddressesAreRejectedAndNoAddressIsLost() throws {
        let run = try runFixtures()
        let rejects = Dictionary(grouping: run.rejects.filter { $0.layer == "addresses" }, by: { $0.sourceRow })
        XCTAssertEqual(rejects[2]?.first?.reason, "no geometry")
        XCTAssertTrue(rejects[3]?.first?.reason.contains("polygon") ?? false)
        XCTAssertTrue(rejects[4]?.first?.reason.contains("duplicate id (first at row 1)") ?? false)
        XCTAssertTrue(rejects[8]?.first?.reason.contains("outside the valid range") ?? false)
        XCTAssertTrue(rejects[9]?.first?.reason.contains("MultiPoint") ?? false)
        // Identical rows without ids get distinct deterministic ids.
        let generated = run.addresses.filter { $0.sourceRow == 5 || $0.sourceRow == 6 }.map(\.id)
        XCTAssertEqual(generated.count, 2)
        XCTAssertNotEqual(generated[0], generated[1])
        XCTAssertTrue(generated.allSatisfy(UUIDv5.isValid))
        // 9 input rows = linked + unlinked + rejected.
        let c = run.report.counts
        XCTAssertEqual(c.linked + c.unlinked + c.rejected, 9)
        XCTAssertEqual(run.links.first { run.addresses[$0.addressIndex].id == "inside" }.map { run.buildings[$0.buildingIndex].id }, "ok-1")
        XCTAssertEqual(run.unlinkedReason[run.addresses.firstIndex { $0.id == "far-away" }!], "no_building_within_max_distance")
    }

    func testGeneratedIDsAreStableAcrossRuns() throws {
        let a = try runFixtures(), b = try runFixtures()
        XCTAssertEqual(a.addresses.map(\.id), b.addresses.map(\.id))
        XCTAssertEqual(a.buildings.map(\.id), b.buildings.map(\.id))
    }

    // MARK: fatal input problems: one line on stderr, exit 1, previous output untouched

    func assertFails(_ args: [String], mentions: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try ProcessRunner.flyrLink(args)
        XCTAssertNotEqual(result.status, 0, file: file, line: line)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(mentions), "stderr: \(result.stderr)", file: file, line: line)
    }

    func testMissingFileLayerGeometryAndCRSFailWithOneLine() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let b = TestPaths.helsinkiBuildings, a = TestPaths.helsinkiAddresses
        try assertFails(["run", "--buildings", "/nonexistent/buildings.gpkg", "--addresses", a, "--out", out], mentions: "no such file")
        try assertFails(["run", "--buildings", b, "--buildings-layer", "nope", "--addresses", a, "--out", out], mentions: "has no layer 'nope'")
        try assertFails(["run", "--buildings", b, "--addresses", TestPaths.fixture("no_geometry.csv"), "--out", out], mentions: "no geometry")
        try assertFails(["run", "--buildings", b, "--addresses", TestPaths.fixture("no_crs_projected.csv"), "--out", out], mentions: "has no CRS")
        try assertFails(["run", "--buildings", b, "--addresses", a, "--out", out, "--campaign", "nope"], mentions: "not a UUID")
        try assertFails(["run", "--buildings", b, "--addresses", a, "--out", out, "--address-field", "colour=paint"], mentions: "unknown address field")
        try assertFails(["run", "--buildings", b, "--addresses", a, "--out", out, "--address-field", "house_number=nope"], mentions: "field 'nope'")
        try assertFails(["run", "--buildings", b, "--addresses", a, "--out", out, "--buildings-crs", "EPSG:999999"], mentions: "CRS")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a failed run must not leave output")
    }

    func testSourceWithoutCRSButGeographicCoordinatesIsAssumedWGS84() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let options = RunOptions(buildings: SourceSpec(location: TestPaths.fixture("bad_buildings.geojson")),
                                 addresses: SourceSpec(location: TestPaths.fixture("no_crs_geographic.csv")), output: out)
        let run = try LinkPipeline(options: options).run()
        XCTAssertEqual(run.report.inputs["addresses"]?.crsAssumed, true)
        XCTAssertEqual(run.addresses.count, 2)
        XCTAssertEqual(run.links.count, 2)
    }

    func testAFailedRunLeavesThePreviousOutputUntouched() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out").path
        let ok = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses, "--out", out, "--quiet"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let before = try OutputFiles.comparableContents(URL(fileURLWithPath: out))
        let failed = try ProcessRunner.flyrLink(["run", "--buildings", "/nonexistent.fgb", "--addresses", TestPaths.helsinkiAddresses, "--out", out])
        XCTAssertNotEqual(failed.status, 0)
        XCTAssertEqual(try OutputFiles.comparableContents(URL(fileURLWithPath: out)), before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        XCTAssertEqual(leftovers, [], "no staging directory may be left behind")
    }
}
