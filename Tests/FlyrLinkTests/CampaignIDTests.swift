import XCTest
@testable import FlyrLink

/// The default campaign id (and so every link id) comes from the inputs' canonical absolute
/// paths: however a path is typed, from wherever the run starts, the ids are the same.
final class CampaignIDTests: XCTestCase {
    /// links.csv of a links-only run of the Helsinki sample, the sources spelled as given, run in `cwd`.
    private func links(buildings: String, addresses: String, cwd: String) throws -> String {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", buildings, "--addresses", addresses, "--out", out, "--only", "links", "--quiet"], cwd: cwd)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try String(contentsOfFile: out + "/links.csv", encoding: .utf8)
    }

    func testTheDefaultCampaignIdDoesNotDependOnHowThePathsAreSpelled() throws {
        let root = TestPaths.root.path
        // A symbolic link to the sample's directory, elsewhere: one more spelling of the same files.
        let elsewhere = TestPaths.temporaryDirectory(self)
        try FileManager.default.createSymbolicLink(atPath: elsewhere.appendingPathComponent("city").path,
                                                   withDestinationPath: TestPaths.root.appendingPathComponent("data/helsinki").path)
        let spellings: [(String, String, String)] = [
            (TestPaths.helsinkiBuildings, TestPaths.helsinkiAddresses, "/"),
            ("data/helsinki/buildings.geojson", "data/helsinki/addresses.geojson", root),
            ("./data/helsinki/../helsinki/buildings.geojson", "./data//helsinki/addresses.geojson", root),
            ("helsinki/buildings.geojson", "helsinki/addresses.geojson", root + "/data"),
            ("city/buildings.geojson", "city/addresses.geojson", elsewhere.path),
        ]
        let first = try links(buildings: spellings[0].0, addresses: spellings[0].1, cwd: spellings[0].2)
        let rows = CSVText.parse(first).dropFirst()
        XCTAssertGreaterThan(rows.count, 1000, "the Helsinki sample's links")
        let campaigns = Set(rows.map { $0[1] })
        XCTAssertEqual(campaigns.count, 1)
        // The id the library derives from the canonical paths, not from the spelling typed.
        let expected = UUIDv5.make(parts: ["campaign", TestPaths.helsinkiBuildings, TestPaths.helsinkiAddresses, ""])
        XCTAssertEqual(campaigns.first, expected)
        for (b, a, cwd) in spellings.dropFirst() {
            XCTAssertEqual(try links(buildings: b, addresses: a, cwd: cwd), first, "\(b) from \(cwd): same campaign and link ids")
        }
        // A copy of the addresses is another input, and another campaign.
        let copy = elsewhere.appendingPathComponent("addresses.geojson").path
        try FileManager.default.copyItem(atPath: TestPaths.helsinkiAddresses, toPath: copy)
        let other = try links(buildings: TestPaths.helsinkiBuildings, addresses: copy, cwd: "/")
        XCTAssertNotEqual(CSVText.parse(other).dropFirst().first?[1], expected)
    }

    /// A database holds many campaigns: a run without --campaign says on stderr which one it wrote.
    func testAPostGISRunWithoutCampaignSaysWhichIdItUsed() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", db, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.stderr)
        let stored = try TestDatabase.query(db, "SELECT DISTINCT campaign_id::text FROM campaign_addresses").compactMap { $0[0] }
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(String(lines[0]), "flyr-link: campaign \(stored[0]) (derived from the inputs' absolute paths; give --campaign UUID to choose it)")
        // With --campaign nothing is said.
        let given = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                                "--out", db, "--quiet", "--campaign", "0c7e0c43-43a4-5a7b-9a43-1c1b5e6a0d55"])
        XCTAssertEqual(given.status, 0, given.stderr)
        XCTAssertEqual(given.stderr, "")
    }
}
