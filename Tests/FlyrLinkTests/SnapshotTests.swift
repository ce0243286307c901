import XCTest
@testable import FlyrLink

/// `flyr-link snapshot` end to end: first run, unchanged re-run, a moved address, pruning, bad input.
final class SnapshotTests: XCTestCase {
    func fixture() throws -> SnapshotFixture {
        let f = SnapshotFixture(dir: TestPaths.temporaryDirectory(self))
        try f.write()
        return f
    }

    func testFirstRunWritesACompleteVersionThatGDALOpensAndWhoseChecksumsVerify() throws {
        let f = try fixture()
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("v000001 created"), r.stdout)
        XCTAssertEqual(f.current(), "v000001")
        XCTAssertEqual(f.visibleEntries(), ["current", "v000001"])
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: f.version("v000001").path))
        XCTAssertEqual(names, Set(Snapshotter.files))
        XCTAssertEqual(SnapshotManifest.verify(f.version("v000001")), [])

        // The manifest: campaign, fingerprints, counts, and a SHA-256 for every other file.
        let manifest = try SnapshotManifest.load(f.version("v000001"))
        XCTAssertEqual(manifest.campaignID, SnapshotFixture.campaign)
        XCTAssertEqual(manifest.version, "v000001")
        XCTAssertNil(manifest.previousVersion)
        XCTAssertEqual(manifest.counts.addresses, 7)
        XCTAssertEqual(manifest.counts.buildings, 6)
        XCTAssertEqual(manifest.counts.links, 7)
        XCTAssertEqual(manifest.inputs["buildings"]?.sha256, SHA256.hashFile(f.buildings))
        XCTAssertEqual(manifest.inputs["addresses"]?.sha256, SHA256.hashFile(f.addresses))
        XCTAssertEqual(manifest.toolVersion, FlyrLinkVersion.string)
        XCTAssertEqual(manifest.options["sticky_margin_m"], "2")
        XCTAssertNotNil(manifest.fingerprint)
        XCTAssertEqual(Set(manifest.files.keys), Set(Snapshotter.files).subtracting(["manifest.json"]))
        for (name, entry) in manifest.files {
            XCTAssertEqual(SHA256.hashFile(f.version("v000001").appendingPathComponent(name).path), entry.sha256, name)
        }

        // GDAL reads the gzip GeoJSON through /vsigzip/.
        for (name, count) in [("buildings.geojson.gz", 6), ("addresses.geojson.gz", 7), ("features.geojson.gz", 6)] {
            let path = "/vsigzip/" + f.version("v000001").appendingPathComponent(name).path
            let info = try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-so", "-al", path])
            XCTAssertEqual(info.status, 0, info.stderr)
            XCTAssertTrue(info.stdout.contains("Feature Count: \(count)"), "\(name): \(info.stdout)")
        }
        // The first diff lists everything as added.
        let diff = try f.json("v000001", "diff.json")
        XCTAssertEqual(((diff["links"] as? [String: Any])?["added"] as? [Any])?.count, 7)
        XCTAssertTrue(diff["from"] is NSNull)
    }

    func testGzipOutputIsDeterministicAndRoundTrips() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let text = String(repeating: "{\"type\":\"Feature\",\"id\":\"x\"}\n", count: 50_000)
        let src = dir.appendingPathComponent("a.txt").path
        try text.write(toFile: src, atomically: true, encoding: .utf8)
        try Gzip.compressFile(src, to: src + ".1.gz")
        usleep(1_100_000)
        try Gzip.compressFile(src, to: src + ".2.gz")
        let a = try Data(contentsOf: URL(fileURLWithPath: src + ".1.gz")), b = try Data(contentsOf: URL(fileURLWithPath: src + ".2.gz"))
        XCTAssertEqual(a, b)
        XCTAssertEqual(Array(a.prefix(2)), [0x1f, 0x8b])
        XCTAssertEqual(Array(a[4..<8]), [0, 0, 0, 0], "mtime 0")
        XCTAssertEqual(try Gzip.decompressFile(src + ".1.gz"), Array(text.utf8))
        let gunzip = try ProcessRunner.run("/bin/gzip", ["-t", src + ".1.gz"])
        XCTAssertEqual(gunzip.status, 0, gunzip.stderr)
    }

    func testAnUnchangedRerunMakesNoNewVersionAndAChangedOptionDoes() throws {
        let f = try fixture()
        XCTAssertEqual(try ProcessRunner.flyrLink(f.arguments).status, 0)
        let again = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("unchanged since v000001; no new version"), again.stdout)
        XCTAssertEqual(f.visibleEntries(), ["current", "v000001"])
        // Same inputs copied elsewhere: content, not paths, decides.
        let copy = f.dir.appendingPathComponent("copy.geojson").path
        try FileManager.default.copyItem(atPath: f.addresses, toPath: copy)
        var args = f.arguments
        args[args.firstIndex(of: f.addresses)!] = copy
        XCTAssertTrue(try ProcessRunner.flyrLink(args).stdout.contains("unchanged"))

        let changed = try ProcessRunner.flyrLink(f.arguments + ["--max-distance", "30"])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertTrue(changed.stdout.contains("v000002 created (previous v000001)"), changed.stdout)
        XCTAssertEqual(f.current(), "v000002")
        XCTAssertEqual(try f.links("v000001").mapValues(\.id), try f.links("v000002").mapValues(\.id))
        // The same content gives the same bytes, gzip included (the proximity link's confidence
        // depends on --max-distance, so only the buildings are the same content here).
        let m1 = try SnapshotManifest.load(f.version("v000001")), m2 = try SnapshotManifest.load(f.version("v000002"))
        for name in ["buildings.geojson.gz", "units.geojson"] {
            XCTAssertEqual(m1.files[name]?.sha256, m2.files[name]?.sha256, name)
        }
        XCTAssertNotEqual(m1.fingerprint, m2.fingerprint)
        XCTAssertEqual(m2.previousVersion, "v000001")
        let diff = try f.json("v000002", "diff.json")
        XCTAssertEqual((diff["links"] as? [String: Any])?["unchanged"] as? Int, 7)
    }

    /// Each version keeps its digests (`digests.bin`); the next diff reads them. The diff is the
    /// one scanning the layers gives (a version from before the file, or one whose file is cut short).
    func testKeptDigestsGiveTheDiffTheLayersGive() throws {
        let f = try firstVersionThenA1Moved(droppingLastBuilding: true)
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        let v1 = f.version("v000001"), v2 = f.version("v000002")
        XCTAssertEqual(DigestFile.read(v1)?.buildings.count, 6)
        XCTAssertEqual(SnapshotManifest.verify(v2), [])
        let kept = try SnapshotDiff.compute(from: v1, to: v2, campaignID: SnapshotFixture.campaign)
        XCTAssertEqual(kept.buildings.removed.count, 1)
        XCTAssertEqual(kept.addresses.changed, ["a1"])

        let copies = TestPaths.temporaryDirectory(self)
        for (k, v) in [v1, v2].enumerated() {
            let copy = copies.appendingPathComponent(v.lastPathComponent)
            try FileManager.default.copyItem(at: v, to: copy)
            let digests = copy.appendingPathComponent(DigestFile.name)
            if k == 0 { try FileManager.default.removeItem(at: digests) } else { try Data([0x46, 0x4C]).write(to: digests) }
            XCTAssertNil(DigestFile.read(copy))
        }
        let scanned = try SnapshotDiff.compute(from: copies.appendingPathComponent("v000001"), to: copies.appendingPathComponent("v000002"),
                                               campaignID: SnapshotFixture.campaign)
        XCTAssertEqual(scanned, kept)
        XCTAssertEqual(try Data(contentsOf: v2.appendingPathComponent("diff.json")), Data(SnapshotDiffJSON(kept).bytes + [0x0A]))
    }

    /// A first version made, then the inputs rewritten with a1 moved from inside b1 to inside b4.
    private func firstVersionThenA1Moved(droppingLastBuilding: Bool = false) throws -> SnapshotFixture {
        var f = try fixture()
        XCTAssertEqual(try ProcessRunner.flyrLink(f.arguments).status, 0)
        let i = f.scene.addresses.firstIndex { $0.id == "a1" }!
        f.scene.addresses[i].x = 85
        f.scene.addresses[i].y = 3
        if droppingLastBuilding { f.scene.buildings.removeLast() }
        try f.write()
        return f
    }

    func testOneMovedAddressIsExactlyWhatTheDiffNames() throws {
        let f = try firstVersionThenA1Moved()
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("1 moved"), r.stdout)

        let diff = try f.json("v000002", "diff.json")
        let links = try XCTUnwrap(diff["links"] as? [String: Any])
        let moved = try XCTUnwrap(links["moved"] as? [[String: Any]])
        XCTAssertEqual(moved.count, 1)
        XCTAssertEqual(moved.first?["address_id"] as? String, "a1")
        XCTAssertEqual(moved.first?["from_building_id"] as? String, "b1")
        XCTAssertEqual(moved.first?["to_building_id"] as? String, "b4")
        XCTAssertEqual((links["added"] as? [Any])?.count, 0)
        XCTAssertEqual((links["removed"] as? [Any])?.count, 0)
        XCTAssertEqual(links["unchanged"] as? Int, 6)
        let addresses = try XCTUnwrap(diff["addresses"] as? [String: Any])
        XCTAssertEqual(addresses["changed"] as? [String], ["a1"])
        XCTAssertEqual(addresses["added"] as? [String], [])
        XCTAssertEqual(addresses["removed"] as? [String], [])
        let buildings = try XCTUnwrap(diff["buildings"] as? [String: Any])
        XCTAssertEqual(buildings["changed"] as? [String], [])
        XCTAssertEqual(buildings["unchanged"] as? Int, 6)

        // Every other link keeps its id; a1's id changes with its building.
        let old = try f.links("v000001"), new = try f.links("v000002")
        XCTAssertEqual(Set(old.keys), Set(new.keys))
        for (address, link) in old where address != "a1" { XCTAssertEqual(new[address]?.id, link.id, address) }
        XCTAssertNotEqual(new["a1"]?.id, old["a1"]?.id)
        XCTAssertEqual(new["a1"]?.building, "b4")

        // `snapshot diff A B` summarises the same.
        let summary = try ProcessRunner.flyrLink(["snapshot", "diff", f.version("v000001").path, f.campaignDir.appendingPathComponent("current").path])
        XCTAssertEqual(summary.status, 0, summary.stderr)
        XCTAssertTrue(summary.stdout.contains("v000001 → v000002"), summary.stdout)
        XCTAssertTrue(summary.stdout.contains("links: 0 added, 0 removed, 1 moved, 6 unchanged"), summary.stdout)
        XCTAssertTrue(summary.stdout.contains("addresses: 0 added, 0 removed, 1 changed"), summary.stdout)
        XCTAssertTrue(summary.stdout.contains("address a1: building b1 → b4"), summary.stdout)
    }

    /// An address between two near-equal buildings stays on its building when a refresh moves it a little.
    func testLinksDoNotFlapBetweenNearEqualBuildings() throws {
        var f = try fixture()
        f.scene.buildings.append(("n1", TownhouseTests.rect(0, 40, 10, 50)))
        f.scene.buildings.append(("n2", TownhouseTests.rect(14, 40, 24, 50)))
        // Each building also has a neighbour of m's that sees it first (were both nobody's nearest,
        // the model would call m a coin flip and link it to neither).
        f.scene.addresses.append(("w", "18", "Gap Lane", nil, -2, 45))
        f.scene.addresses.append(("e", "22", "Gap Lane", nil, 30, 45))
        f.scene.addresses.append(("m", "20", "Gap Lane", nil, 12.4, 45))  // 2.4 m from n1, 1.6 m from n2
        try f.write(territory: (-20, -20, 130, 60))
        XCTAssertEqual(try ProcessRunner.flyrLink(f.arguments).status, 0)
        XCTAssertEqual(try f.links("v000001")["m"]?.building, "n2")
        // The refreshed source places it 0.6 m further west: n1 is now 0.2 m nearer.
        f.scene.addresses[f.scene.addresses.count - 1].x = 11.8
        try f.write(territory: (-20, -20, 130, 60))
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try f.links("v000002")["m"]?.building, "n2", "kept: n1 is not better by more than the 2 m margin")
        let links = try XCTUnwrap(try f.json("v000002", "diff.json")["links"] as? [String: Any])
        XCTAssertEqual((links["moved"] as? [Any])?.count, 0)
        // Without the margin the link would have moved.
        let strict = try ProcessRunner.flyrLink(f.arguments + ["--sticky-margin", "0"])
        XCTAssertEqual(strict.status, 0, strict.stderr)
        XCTAssertEqual(try f.links("v000003")["m"]?.building, "n1")
    }

    func testKeepPrunesOlderVersionsButNeverCurrent() throws {
        let f = try fixture()
        for (k, d) in ["40", "35", "30", "25"].enumerated() {
            let r = try ProcessRunner.flyrLink(f.arguments + ["--max-distance", d, "--keep", "2"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(f.current(), CampaignDirectory.versionName(k + 1))
        }
        XCTAssertEqual(f.visibleEntries(), ["current", "v000003", "v000004"])
        // Even when `current` is the oldest version, pruning keeps it.
        let dir = CampaignDirectory(root: f.root, campaign: SnapshotFixture.campaign)
        unlink(f.campaignDir.appendingPathComponent("current").path)
        symlink("v000003", f.campaignDir.appendingPathComponent("current").path)
        XCTAssertEqual(dir.prune(keep: 1), [])
        XCTAssertEqual(f.visibleEntries(), ["current", "v000003", "v000004"])
    }

    func testAPipelineFileRegeneratesEveryCampaign() throws {
        let f = try fixture()
        let other = "9e8d7c6b-5a49-5382-a1b0-c9d8e7f6a5b4"
        try SnapshotFixture.polygonFile((30, -20, 130, 30)).write(toFile: f.dir.appendingPathComponent("east.geojson").path, atomically: true, encoding: .utf8)
        let toml = """
        root = "snapshots"
        buildings = "b.geojson"
        addresses = "a.geojson"
        keep = 3

        [[campaigns]]
        id = "\(SnapshotFixture.campaign)"
        territory = "territory.geojson"

        [[campaigns]]
        id = "\(other)"
        territory = "east.geojson"
        max_distance = 20
        """
        let file = f.dir.appendingPathComponent("snap.toml").path
        try toml.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.flyrLink(["snapshot", file])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(f.current(), "v000001")
        let east = try SnapshotManifest.load(f.root.appendingPathComponent(other).appendingPathComponent("current"))
        XCTAssertEqual(east.counts.buildings, 4)
        XCTAssertEqual(east.options["max_distance_m"], "20")
        let again = try ProcessRunner.flyrLink(["snapshot", file])
        XCTAssertEqual(again.stdout.components(separatedBy: "no new version").count - 1, 2, again.stdout)
    }

    func testRoadsAreClippedToTheTerritory() throws {
        let f = try fixture()
        let line = [(-100.0, -10.0), (200.0, -10.0)].map { TownhouseTests.Scene.lonLat($0.0, $0.1) }.joined(separator: ",")
        let far = [(500.0, 500.0), (600.0, 500.0)].map { TownhouseTests.Scene.lonLat($0.0, $0.1) }.joined(separator: ",")
        let roads = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"r1","highway":"residential","name":"Quay Street"},"geometry":{"type":"LineString","coordinates":[\#(line)]}},{"type":"Feature","properties":{"id":"r2","highway":"primary"},"geometry":{"type":"LineString","coordinates":[\#(far)]}}]}"#
        let path = f.dir.appendingPathComponent("roads.geojson").path
        try roads.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.flyrLink(f.arguments + ["--roads", path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let bytes = try Gzip.decompressFile(f.version("v000001").appendingPathComponent("roads.geojson.gz").path)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let features = try XCTUnwrap(doc["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 1)
        let props = OutputFiles.properties(features[0])
        XCTAssertEqual(props["id"] as? String, "r1")
        XCTAssertEqual(props["class"] as? String, "residential")
        XCTAssertEqual(props["name"] as? String, "Quay Street")
        let coords = try XCTUnwrap((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        let xs = coords.map { $0[0] }
        let west = 10.0 + -20 / (111_320 * cos(56.0 * .pi / 180)), east = 10.0 + 130 / (111_320 * cos(56.0 * .pi / 180))
        XCTAssertEqual(xs.min()!, west, accuracy: 1e-6)
        XCTAssertEqual(xs.max()!, east, accuracy: 1e-6)
        XCTAssertEqual(try SnapshotManifest.load(f.version("v000001")).counts.roads, 1)
        XCTAssertEqual(SnapshotManifest.verify(f.version("v000001")), [])
        let info = try ProcessRunner.run("/usr/bin/ogrinfo", ["-ro", "-so", "-al", "/vsigzip/" + f.version("v000001").appendingPathComponent("roads.geojson.gz").path])
        XCTAssertTrue(info.stdout.contains("Feature Count: 1"), info.stdout + info.stderr)
    }

    func testBadInputIsAClearErrorAndWritesNothing() throws {
        let f = try fixture()
        func assertFails(_ args: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let r = try ProcessRunner.flyrLink(args)
            XCTAssertEqual(r.status, 1, file: file, line: line)
            XCTAssertTrue(r.stderr.contains(message), r.stderr, file: file, line: line)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr, file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: f.root.path), "nothing written", file: file, line: line)
        }
        func territory(_ text: String) throws -> [String] {
            let path = f.dir.appendingPathComponent("bad-territory-\(UUID().uuidString).geojson").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            var args = f.arguments
            args[args.firstIndex(of: f.territory)!] = path
            return args
        }
        let point = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[10,56]}}]}"#
        try assertFails(try territory(point), "a territory must be polygons")
        try assertFails(try territory(#"{"type":"FeatureCollection","features":[]}"#), "has no polygon")
        try assertFails(try territory(SnapshotFixture.polygonFile((5000, 5000, 5100, 5100))), "intersects no building and no address")
        var args = f.arguments
        args[args.firstIndex(of: SnapshotFixture.campaign)!] = "campaign-7"
        try assertFails(args, "campaign id 'campaign-7' is not a UUID")
        // A root that cannot be written: below a regular file.
        let blocker = f.dir.appendingPathComponent("not-a-dir")
        try "x".write(to: blocker, atomically: true, encoding: .utf8)
        args = f.arguments
        args[args.firstIndex(of: f.root.path)!] = blocker.appendingPathComponent("root").path
        let r = try ProcessRunner.flyrLink(args)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("is not a directory"), r.stderr)
        XCTAssertEqual(try String(contentsOf: blocker, encoding: .utf8), "x")
    }
}
