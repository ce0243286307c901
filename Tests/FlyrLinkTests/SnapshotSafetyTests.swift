import XCTest
@testable import FlyrLink

/// A regeneration that is killed, or races another one, never leaves `current` on anything but the
/// last complete version, and never shows a partial version.
final class SnapshotSafetyTests: XCTestCase {
    static let points = ["locked", "linked", "written", "staged", "published"]

    func testARunKilledAtEveryPointLeavesCurrentOnTheLastCompleteVersion() throws {
        var f = SnapshotFixture(dir: TestPaths.temporaryDirectory(self))
        try f.write()
        XCTAssertEqual(try ProcessRunner.flyrLink(f.arguments).status, 0)
        let before = try Data(contentsOf: f.version("v000001").appendingPathComponent("manifest.json"))
        // New data, so the next run would make v000002.
        f.scene.addresses[0].x += 1
        try f.write()

        for point in Self.points {
            let p = try BackgroundProcess(f.arguments, environment: [TestPause.variable: point])
            XCTAssertTrue(p.waitFor("test pause at \(point)"), "never reached \(point): \(p.stderr)")
            p.killNow()
            XCTAssertEqual(p.process.terminationReason, .uncaughtSignal, point)
            XCTAssertEqual(f.current(), "v000001", "killed at \(point)")
            f.assertOnlyCompleteVersionsVisible()
            XCTAssertEqual(try Data(contentsOf: f.version("v000001").appendingPathComponent("manifest.json")), before)
            let hidden = try FileManager.default.contentsOfDirectory(atPath: f.campaignDir.path).filter { $0.hasPrefix(".staging-") }
            if ["linked", "written", "staged"].contains(point) {
                XCTAssertEqual(hidden.count, 1, "the killed run's staging directory is hidden: \(hidden)")
            }
            if point == "published" {
                // Complete but never published; the next run removes it.
                XCTAssertEqual(f.visibleEntries(), ["current", "v000001", "v000002"])
            }
        }

        // The next run cleans up after the killed ones and publishes.
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("v000002 created (previous v000001)"), r.stdout)
        XCTAssertEqual(f.current(), "v000002")
        XCTAssertEqual(f.visibleEntries(), ["current", "v000001", "v000002"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: f.campaignDir.path).filter { $0.hasPrefix(".") && $0 != ".lock" }
        XCTAssertEqual(leftovers, [])
        f.assertOnlyCompleteVersionsVisible()
    }

    /// A run that fails (here: a territory that now intersects nothing) leaves the campaign as it was.
    func testAFailedRunLeavesCurrentAndNoLeftovers() throws {
        let f = SnapshotFixture(dir: TestPaths.temporaryDirectory(self))
        try f.write()
        XCTAssertEqual(try ProcessRunner.flyrLink(f.arguments).status, 0)
        try f.write(territory: (5000, 5000, 5100, 5100))
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("intersects no building and no address"), r.stderr)
        XCTAssertEqual(f.current(), "v000001")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: f.campaignDir.path).sorted(), [".lock", "current", "v000001"])
        f.assertOnlyCompleteVersionsVisible()
    }

    /// The very first run killed just before `current` exists: its complete version stays (nothing
    /// proves it unpublished), the next run publishes a newer one.
    func testAFirstRunKilledBeforePublishingLeavesNoCurrent() throws {
        let f = SnapshotFixture(dir: TestPaths.temporaryDirectory(self))
        try f.write()
        let p = try BackgroundProcess(f.arguments, environment: [TestPause.variable: "published"])
        XCTAssertTrue(p.waitFor("test pause at published"), p.stderr)
        p.killNow()
        XCTAssertNil(f.current())
        XCTAssertEqual(f.visibleEntries(), ["v000001"])
        f.assertOnlyCompleteVersionsVisible()
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(f.current(), "v000002")
        f.assertOnlyCompleteVersionsVisible()
    }

    /// Killed after a while, wherever it happens to be (a debug build takes about 1.5 s on the Helsinki
    /// sample, so the delays land in reading, linking and writing; a run that finishes first must publish).
    func testARunKilledAtRandomMomentsLeavesCurrentOnACompleteVersion() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let root = dir.appendingPathComponent("snapshots")
        let campaign = "5e1d2c3b-4a59-5687-9a0b-c1d2e3f4a5b6"
        let territory = TestPaths.root.appendingPathComponent("data/helsinki/territory-south.geojson").path
        func args(_ distance: Int) -> [String] {
            ["snapshot", "--campaign", campaign, "--territory", territory, "--buildings", TestPaths.helsinkiBuildings,
             "--addresses", TestPaths.helsinkiAddresses, "--root", root.path, "--max-distance", String(distance), "--threads", "1"]
        }
        let campaignDir = CampaignDirectory(root: root, campaign: campaign)
        XCTAssertEqual(try ProcessRunner.flyrLink(args(40)).status, 0)
        var published = 1
        for (k, delay) in [0.05, 0.2, 0.5, 0.9, 1.2, 1.4].enumerated() {
            let p = try BackgroundProcess(args(30 - k))
            usleep(useconds_t(delay * 1_000_000))
            p.killNow()
            if p.process.terminationReason == .exit { XCTAssertEqual(p.process.terminationStatus, 0, p.stderr) }
            // Killed before `current` was switched: still the last one; after (or finished): the new one.
            let now = campaignDir.current()
            if p.process.terminationReason == .exit || now == CampaignDirectory.versionName(published + 1) { published += 1 }
            XCTAssertEqual(now, CampaignDirectory.versionName(published), "after \(delay) s")
            for v in campaignDir.versions() {
                XCTAssertEqual(SnapshotManifest.verify(campaignDir.url.appendingPathComponent(v)), [], v)
            }
        }
        let r = try ProcessRunner.flyrLink(args(10))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(campaignDir.current(), CampaignDirectory.versionName(published + 1))
    }

    func testTwoRegenerationsAtOnceOneProceedsTheOtherFailsClearly() throws {
        let f = SnapshotFixture(dir: TestPaths.temporaryDirectory(self))
        try f.write()
        let first = try BackgroundProcess(f.arguments, environment: [TestPause.variable: "linked"])
        XCTAssertTrue(first.waitFor("test pause at linked"), first.stderr)
        let second = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(second.status, 1)
        XCTAssertEqual(second.stderr, "flyr-link: error: campaign \(SnapshotFixture.campaign) is being regenerated by another process (pid \(first.pid))\n")
        // The lock dies with its holder: a later run proceeds.
        first.killNow()
        XCTAssertEqual(f.visibleEntries(), [])
        let third = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(f.current(), "v000001")
    }

    func testRacingRegenerationsMakeOneVersion() throws {
        let f = SnapshotFixture(dir: TestPaths.temporaryDirectory(self))
        try f.write()
        XCTAssertEqual(try ProcessRunner.flyrLink(f.arguments).status, 0)
        let args = f.arguments + ["--max-distance", "33"]
        let runners = try (0..<3).map { _ in try BackgroundProcess(args) }
        for r in runners { r.process.waitUntilExit() }
        let outcomes = runners.map { r -> String in
            if r.process.terminationStatus == 0 { return "ok" }
            XCTAssertTrue(r.stderr.contains("is being regenerated by another process (pid "), r.stderr)
            return "locked"
        }
        XCTAssertTrue(outcomes.contains("ok"), "\(outcomes)")
        XCTAssertEqual(f.current(), "v000002")
        XCTAssertEqual(f.visibleEntries(), ["current", "v000001", "v000002"])
        f.assertOnlyCompleteVersionsVisible()
    }
}
