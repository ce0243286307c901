import XCTest
import SyntheticCity
@testable import FlyrLink
@testable import FlyrLinkDistributed

/// The pieces of a distributed run (docs/distributed.md): tiles, the run's measures from parts, the
/// tiles' decisions, and end to end through the binary, a tiled run's outputs against one run's.
/// distributed/test-cluster.sh runs the same on a real Spark cluster.
final class DistributedRunTests: XCTestCase {
    func testTilesHoldEveryPointOnceWithNearlyEqualCounts() {
        for seed: UInt64 in 1...5 { tilesHoldEveryPointOnce(seed: seed) }
    }

    private func tilesHoldEveryPointOnce(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)  // (flyr-synth's: a failure can be run again)
        var points = (0..<5000).map { _ in Point2(x: Double.random(in: -3000...3000, using: &rng), y: Double.random(in: -800...800, using: &rng)) }
        // Points on a common coordinate (a cut may fall on them) and one repeated point.
        points += (0..<50).map { Point2(x: 0, y: Double($0)) } + Array(repeating: Point2(x: 12.5, y: 7), count: 20)
        for count in [1, 2, 7, 16] {
            let cut = TileCutter.cut(points, into: count), tiles = cut.map(\.bounds)
            XCTAssertEqual(tiles.count, count)
            let owners = points.map { p in tiles.indices.filter { tiles[$0].contains(p) } }
            XCTAssertTrue(owners.allSatisfy { $0.count == 1 }, "every point in exactly one tile (\(count) tiles)")
            // Points on a cut all go up: with 70 points sharing a coordinate, the counts on either
            // side of a cut can differ by up to twice that.
            let sizes = tiles.indices.map { t in owners.filter { $0 == [t] }.count }
            XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 2 * 70 + 2, "seed \(seed), \(count) tiles: \(sizes)")
            XCTAssertEqual(cut.map(\.points), sizes)
        }
        // The tiles cover the plane: a point far outside the data has a tile too.
        let tiles = TileCutter.cut(points, into: 9).map(\.bounds)
        XCTAssertEqual(tiles.filter { $0.contains(Point2(x: 1e7, y: -1e7)) }.count, 1)
    }

    /// A box left with no points but several tiles (beside a stack of points on one spot, or more
    /// tiles than points) is cut inside itself: the tiles stay disjoint (a review found a stack
    /// 50 m from the frame's centre in three tiles), and a plan with tiles that read nothing is
    /// written and read back.
    func testTilesStayDisjointWithStacksAndMoreTilesThanPoints() throws {
        let stack = Array(repeating: Point2(x: -50, y: 10), count: 100) + [Point2(x: 300, y: 40), Point2(x: -400, y: -20)]
        for (points, count) in [(stack, 200), (Array(stack.suffix(3)), 8), ([Point2(x: 5, y: 5)], 4), ([], 3)] {
            let tiles = TileCutter.cut(points, into: count).map(\.bounds)
            XCTAssertEqual(tiles.count, count)
            // Probes: the points, and a grid around them.
            let probes = points + (-60...60).flatMap { i in (-60...60).map { j in Point2(x: Double(i) * 10, y: Double(j) * 10) } }
            for p in probes { XCTAssertEqual(tiles.filter { $0.contains(p) }.count, 1, "\(p) with \(points.count) points in \(count) tiles") }
        }
        let dir = TestPaths.temporaryDirectory(self)
        let plan = dir.appendingPathComponent("plan.json").path
        let r = try ProcessRunner.flyrLink(["plan", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--tiles", "3000", "--out", plan])
        XCTAssertEqual(r.status, 0, r.stderr)
        var read = try TilePlan.read(plan)
        XCTAssertEqual(read.tiles.count, 3000)
        // A tile outside the data's extent reads nothing: its empty box (infinite sides) is written too.
        read.tiles[0].linkReadBox = .empty
        try read.write(to: plan)
        XCTAssertEqual(try TilePlan.read(plan).tiles[0], read.tiles[0])
    }

    /// A tile's halo found through the grid of the buildings' boxes is the halo of a scan of every
    /// box: buildings of every size (some longer than 64 of the grid's cells), tiles with
    /// unbounded sides, boxes that touch a halo's edge.
    func testTileHalosThroughTheGridAreThoseOfEveryBox() {
        var rng = SeededGenerator(seed: 7)
        var boxes: [BBox] = (0..<20_000).map { k in
            let x = Double.random(in: -20_000...20_000, using: &rng), y = Double.random(in: -5_000...5_000, using: &rng)
            let w = k % 997 == 0 ? Double.random(in: 500...40_000, using: &rng) : Double.random(in: 4...120, using: &rng)
            return BBox(minX: x, minY: y, maxX: x + w, maxY: y + Double.random(in: 4...60, using: &rng))
        }
        boxes.append(.empty)
        let points = boxes.dropLast().map(\.center)
        let options = LinkOptions()
        let grid = TileHalo.grid(of: boxes, pool: WorkerPool(threads: 2))
        let tiles = TileCutter.cut(points, into: 40)
        // The scan the plan made before the grid: every box tested for every tile.
        func scanned(_ bounds: TileBounds) -> TilePlan.Halo {
            let r = options.maxDistance
            var extent = 0.0
            while true {
                let addresses = max(4 * r + 2 * extent, 2 * r + extent + StreetSides.radius) + TileHalo.margin
                let halo = TilePlan.Halo(addresses: addresses, buildings: addresses + r + options.accessoryRadius + TileHalo.margin)
                var longest = 0.0
                for b in boxes where bounds.meets(b, within: halo.buildings) {
                    let w = b.maxX - b.minX, h = b.maxY - b.minY
                    longest = max(longest, (w * w + h * h).squareRoot())
                }
                if longest <= extent { return halo }
                extent = longest
            }
        }
        var grown = 0
        for (bounds, _) in tiles {
            let halo = TileHalo.link(around: bounds, footprintBoxes: boxes, grid: grid, options: options)
            XCTAssertEqual(halo, scanned(bounds))
            if halo.addresses > 1000 { grown += 1 }
        }
        XCTAssertGreaterThan(grown, 0, "some halos grow for a long building")
        // A box that touches the halo's edge exactly is met.
        let bounds = TileBounds(minX: 0, minY: 0, maxX: 1000, maxY: 1000)
        let base = TileHalo.link(around: bounds, footprintBoxes: [], grid: TileHalo.grid(of: [], pool: WorkerPool(threads: 1)), options: options)
        let touching = [BBox(minX: 1000 + base.buildings, minY: 500, maxX: 1000 + base.buildings + 300, maxY: 510)]
        let met = TileHalo.link(around: bounds, footprintBoxes: touching, grid: TileHalo.grid(of: touching, pool: WorkerPool(threads: 1)), options: options)
        XCTAssertGreaterThan(met.addresses, base.addresses)
    }

    func testRunMeasuresFromPartsAreTheWholeRunsToTheByte() throws {
        var rng = SystemRandomNumberGenerator()
        let contributions = (0..<3000).map { _ in
            (covers: Bool.random(using: &rng) ? Bool.random(using: &rng) : nil, distance: Float.random(in: 0...40, using: &rng),
             vote: Double.random(in: -1...1, using: &rng), street: UInt64.random(in: 1...40, using: &rng))
        }
        func measures(_ part: ArraySlice<(covers: Bool?, distance: Float, vote: Double, street: UInt64)>) -> RunMeasures {
            var m = RunMeasures()
            for c in part {
                m.addPlacement(covers: c.covers, distance: c.distance)
                m.addVote(c.vote, street: c.street)
            }
            return m
        }
        let whole = measures(contributions[...])
        var summed = RunMeasures()
        for cut in stride(from: 0, to: 3000, by: 700).reversed() { summed.add(measures(contributions[cut..<min(cut + 700, 3000)])) }
        XCTAssertEqual(summed, whole)
        XCTAssertEqual(summed.oddOnLeft(street: 7), whole.oddOnLeft(street: 7))
        // The median of the rounded distances is the rounded median.
        let nearest = contributions.filter { $0.covers != nil }.map(\.distance).sorted()
        XCTAssertEqual(whole.medianNearest(reach: 40), (Double(nearest[nearest.count / 2]) * 100).rounded() / 100)
        let dir = TestPaths.temporaryDirectory(self)
        try TileMeasures(plan: "p", tiles: [0], measures: whole).write(to: dir.appendingPathComponent("a.json").path)
        try TileMeasures(plan: "p", tiles: [0], measures: summed).write(to: dir.appendingPathComponent("b.json").path)
        let a = try Data(contentsOf: dir.appendingPathComponent("a.json")), b = try Data(contentsOf: dir.appendingPathComponent("b.json"))
        XCTAssertEqual(a, b, "the same measures, the same bytes")
        XCTAssertEqual(try TileMeasures.read(dir.appendingPathComponent("a.json").path).measures, whole)
    }

    /// The votes' sums hold a continent's addresses (2⁻⁴⁰ units overflowed at 8.4 million votes,
    /// found by a 10M-building run).
    func testVoteSumsHoldBillionsOfVotes() {
        XCTAssertGreaterThan(RunMeasures.Votes.capacity, 5e9)
        var part = RunMeasures.Votes()
        for _ in 0..<1000 { part.add(1) }
        var run = RunMeasures.Votes()
        for _ in 0..<5_000_000 { run.add(part) }  // five billion full votes
        XCTAssertEqual(run.ratio, 1)
        XCTAssertEqual(run.weightInVotes, 5e9)
    }

    func testTileDecisionsComeBackToTheBit() throws {
        let path = TestPaths.temporaryDirectory(self).appendingPathComponent(TileDecisions.fileName(tile: 3)).path
        let written = TileDecisions(tile: 3, plan: "c0ffee", outcomes: [
            .init(address: "a1", building: "b17", method: .exact, confidence: 0.1 + 0.2, distance: 0, unlinked: nil),
            .init(address: "a4 (Åbo)", building: nil, method: .proximity, confidence: 0, distance: 0, unlinked: .lowConfidence),
            .init(address: "a9", building: "", method: .proximity, confidence: 0.999, distance: 12.345678901234, unlinked: nil),
        ])
        try written.write(to: path)
        let read = try TileDecisions.read(path)
        XCTAssertEqual(read.tile, 3)
        XCTAssertEqual(read.plan, "c0ffee")
        XCTAssertEqual(read.outcomes, written.outcomes)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.dropLast(5).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try TileDecisions.read(path)) { XCTAssertTrue("\($0)".contains("cut short"), "\($0)") }
    }

    /// plan → every tile's measures → their sum → every tile's decisions → every tile's parts of
    /// the outputs (then run --decisions, or run --parts). `edit`: a change to the plan before the
    /// tiles run (a test of what a wrong plan would do). `shares`: the plan made from so many
    /// shares of the sources (`planFromShares`).
    func tiledRun(_ sources: [String], tiles: Int, in dir: URL, outputs: Bool = true, shares: Int? = nil,
                  edit: ((inout TilePlan) -> Void)? = nil) throws -> String {
        let plan = dir.appendingPathComponent("decisions/plan.json").path
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("decisions"), withIntermediateDirectories: true)
        var r: ProcessResult
        if let shares {
            let directory = dir.appendingPathComponent("shares").path
            XCTAssertEqual(try planFromShares(sources, shares: shares, in: directory), "frame")
            r = try ProcessRunner.flyrLink(["plan"] + sources + ["--shares", directory, "--tiles", "\(tiles)", "--out", plan])
        } else {
            r = try ProcessRunner.flyrLink(["plan"] + sources + ["--tiles", "\(tiles)", "--out", plan])
        }
        XCTAssertEqual(r.status, 0, r.stderr)
        if let edit {
            var edited = try TilePlan.read(plan)
            edit(&edited)
            try edited.write(to: plan)
        }
        let parts = (0..<tiles).map { dir.appendingPathComponent("part-\($0).json").path }
        for t in 0..<tiles {
            r = try ProcessRunner.flyrLink(["tile", "measures", "--plan", plan, "--tile", "\(t)", "--out", parts[t]])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let measures = dir.appendingPathComponent("measures.json").path
        r = try ProcessRunner.flyrLink(["tile", "sum", "--plan", plan] + parts + ["--out", measures])
        XCTAssertEqual(r.status, 0, r.stderr)
        for t in 0..<tiles {
            r = try ProcessRunner.flyrLink(["tile", "link", "--plan", plan, "--tile", "\(t)", "--measures", measures,
                                            "--out", dir.appendingPathComponent("decisions/" + TileDecisions.fileName(tile: t)).path])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        for t in 0..<tiles where outputs {
            r = try ProcessRunner.flyrLink(["tile", "outputs", "--plan", plan, "--tile", "\(t)"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        return dir.appendingPathComponent("decisions").path
    }

    /// One run (in dir/one), the outputs from the tiles' decisions (dir/tiled) and those merged
    /// from the tiles' parts (dir/merged): every file the same bytes, but for the timings of the
    /// report (report.json's `run`, report.html's table of it).
    func assertOneRunsOutputs(_ sources: [String], decisions: String, in dir: URL) throws {
        var r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", dir.appendingPathComponent("one").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        for (name, step) in [("tiled", "--decisions"), ("merged", "--parts")] {
            r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", dir.appendingPathComponent(name).path, step, decisions])
            XCTAssertEqual(r.status, 0, r.stderr)
            for file in RunWriter.files {
                let one = try Self.withoutTimings(file, Data(contentsOf: dir.appendingPathComponent("one/\(file)")))
                XCTAssertEqual(one, try Self.withoutTimings(file, Data(contentsOf: dir.appendingPathComponent("\(name)/\(file)"))), "\(name)/\(file)")
            }
        }
    }

    /// A tile pack's header (its first line).
    static func packHeader(_ path: String) throws -> TilePack.Header {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(TilePack.Header.self, from: bytes.prefix(upTo: bytes.firstIndex(of: UInt8(ascii: "\n"))!))
    }

    /// report.json without its `run` (wall times, threads), report.html without the table of it.
    static func withoutTimings(_ file: String, _ data: Data) throws -> Data {
        switch file {
        case "report.json":
            var report = try JSONSerialization.jsonObject(with: data) as! [String: Any]
            report["run"] = nil
            return try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        case "report.html":
            let page = String(decoding: data, as: UTF8.self)
            guard let start = page.range(of: "<!--run-->"), let end = page.range(of: "<!--/run-->") else { return data }
            return Data((String(page[..<start.lowerBound]) + String(page[end.upperBound...])).utf8)
        default:
            return data
        }
    }

    func testATiledRunWritesOneRunsOutputs() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        let decisions = try tiledRun(sources, tiles: 7, in: dir)
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)
        XCTAssertGreaterThan(try OutputFiles.csv(dir.appendingPathComponent("one/links.csv").path).count, 1000)
        // GeoJSON cannot be read in parts: the plan cut both layers into the tiles' packs, each
        // tile's a part of the whole.
        let plan = try TilePlan.read(decisions + "/plan.json")
        XCTAssertEqual(plan.packed, [.buildings, .addresses])
        for layer in plan.packed {
            let rows = try plan.tiles.map { tile in
                XCTAssertEqual(tile.packs.keys.sorted(), ["addresses", "buildings"])
                return try Self.packHeader(decisions + "/plan.packs/" + TilePack.fileName(tile: tile.index, layer: layer)).rows
            }
            let total = layer == .buildings ? plan.buildings : plan.addresses
            // (The sample is small beside a tile's halo, about 500 m: each tile holds most of it.)
            XCTAssertTrue(rows.allSatisfy { $0 > 0 && $0 < total }, "\(layer): \(rows) of \(total)")
        }
        // A pack that is not the plan's: the tile refuses it.
        let pack = decisions + "/plan.packs/" + TilePack.fileName(tile: 3, layer: .addresses)
        let packed = try Data(contentsOf: URL(fileURLWithPath: pack))
        try (packed.dropLast() + Data([packed.last! ^ 1])).write(to: URL(fileURLWithPath: pack))
        let stale = try ProcessRunner.flyrLink(["tile", "measures", "--plan", decisions + "/plan.json", "--tile", "3",
                                                "--out", dir.appendingPathComponent("stale.json").path])
        XCTAssertNotEqual(stale.status, 0)
        XCTAssertTrue(stale.stderr.contains("is not the pack its plan was made with"), stale.stderr)
        try packed.write(to: URL(fileURLWithPath: pack))

        // A tile's decisions missing, or a run with other linking options: one error, nothing written.
        let gone = dir.appendingPathComponent("decisions/" + TileDecisions.fileName(tile: 4))
        let kept = try Data(contentsOf: gone)
        try FileManager.default.removeItem(at: gone)
        let refused = dir.appendingPathComponent("refused").path
        var r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", refused, "--decisions", decisions])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("tile 4 has no decisions"), r.stderr)
        try kept.write(to: gone)
        r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", refused, "--decisions", decisions, "--max-distance", "25"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("made for other sources or linking options"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused))
    }

    /// A plan replaces its own packs, and removes them when it packs nothing; anything else in
    /// their way (a file, a directory holding more than packs) is the user's: the plan refuses it.
    func testAPlanReplacesOnlyItsOwnPacks() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let plan = dir.appendingPathComponent("p.json").path, packs = dir.appendingPathComponent("p.packs").path
        let geoJSON = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        let parquet = ["--buildings", TestPaths.fixture("city2k/buildings.snappy.parquet"),
                       "--addresses", TestPaths.fixture("city2k/addresses.zstd.parquet"), "--parquet-reader", "flyr"]
        let fm = FileManager.default
        var r = try ProcessRunner.flyrLink(["plan"] + geoJSON + ["--tiles", "3", "--out", plan])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("the tiles' packs of the buildings and addresses → \(packs)"), r.stdout)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: packs).count, 6)
        r = try ProcessRunner.flyrLink(["plan"] + geoJSON + ["--tiles", "2", "--out", plan])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: packs).sorted(),
                       ["tile-000000.addresses.pack", "tile-000000.buildings.pack", "tile-000001.addresses.pack", "tile-000001.buildings.pack"])
        r = try ProcessRunner.flyrLink(["plan"] + parquet + ["--tiles", "2", "--out", plan])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(fm.fileExists(atPath: packs))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir.path).sorted(), ["p.json", "p.rejects.csv"])
        // The user's file where the packs would go: refused, kept as it was, the plan too.
        let before = try Data(contentsOf: URL(fileURLWithPath: plan))
        let mine = Data("mine".utf8)
        try mine.write(to: URL(fileURLWithPath: packs))
        r = try ProcessRunner.flyrLink(["plan"] + geoJSON + ["--tiles", "2", "--out", plan])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("is in the way of the plan's packs"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: packs)), mine)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: plan)), before)
        // The user's directory, a note in it beside a file named as a pack: the same.
        try fm.removeItem(atPath: packs)
        try fm.createDirectory(atPath: packs, withIntermediateDirectories: false)
        for name in ["notes.txt", "tile-000000.buildings.pack"] { try mine.write(to: URL(fileURLWithPath: packs + "/" + name)) }
        r = try ProcessRunner.flyrLink(["plan"] + geoJSON + ["--tiles", "2", "--out", plan])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("is in the way of the plan's packs"), r.stderr)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: packs).sorted(), ["notes.txt", "tile-000000.buildings.pack"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: packs + "/notes.txt")), mine)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: plan)), before)
        // Nothing left beside them.
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir.path).sorted(), ["p.json", "p.packs", "p.rejects.csv"])
    }

    /// A tile with no address of its own (every address on one spot: the cut puts them all in the
    /// upper tile) decides nothing and writes empty parts; the outputs are still one run's.
    func testATileWithNoAddressesOfItsOwn() throws {
        let dir = TestPaths.temporaryDirectory(self)
        func collection(_ features: [String]) -> String { #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}" }
        let building = #"{"type":"Feature","properties":{"id":"b1"},"geometry":{"type":"Polygon","coordinates":[[[24.9400,60.1700],[24.9402,60.1700],[24.9402,60.1701],[24.9400,60.1701],[24.9400,60.1700]]]}}"#
        let addresses = (1...3).map { #"{"type":"Feature","properties":{"id":"a\#($0)","housenumber":"\#($0)","street":"Testikatu"},"geometry":{"type":"Point","coordinates":[24.94005,60.17005]}}"# }
        let buildingsPath = dir.appendingPathComponent("buildings.geojson"), addressesPath = dir.appendingPathComponent("addresses.geojson")
        try Data(collection([building]).utf8).write(to: buildingsPath)
        try Data(collection(addresses).utf8).write(to: addressesPath)
        let sources = ["--buildings", buildingsPath.path, "--addresses", addressesPath.path]
        let decisions = try tiledRun(sources, tiles: 2, in: dir)
        let plan = try TilePlan.read(decisions + "/plan.json")
        XCTAssertEqual(plan.tiles.map(\.addresses), [0, 3])
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)
        XCTAssertEqual(try OutputFiles.csv(dir.appendingPathComponent("one/links.csv").path).count, 3)
    }

    /// The merge takes only the parts of every tile of its plan, made with its options; a database
    /// is written by run --decisions. Nothing is written when it refuses.
    func testAMergeRefusesWhatIsNotEveryTilesPartsOfItsPlan() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        let decisions = try tiledRun(sources, tiles: 3, in: dir)
        let out = dir.appendingPathComponent("out").path
        func refused(_ extra: [String], _ says: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", out, "--parts", decisions] + extra)
            XCTAssertNotEqual(r.status, 0, file: file, line: line)
            XCTAssertTrue(r.stderr.contains(says), r.stderr, file: file, line: line)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), file: file, line: line)
        }
        try refused(["--units", "none"], "made for other sources, linking or output options")
        try refused(["--only", "links"], "made for other sources, linking or output options")
        try refused(["--allow-empty"], "made for other sources, linking or output options")
        // The same file named another way: the report would name it as the plan does.
        let relative = ["--buildings", "./" + TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        let r0 = try ProcessRunner.flyrLink(["run"] + relative + ["--out", out, "--parts", decisions], cwd: "/")
        XCTAssertNotEqual(r0.status, 0)
        XCTAssertTrue(r0.stderr.contains("give the sources as the plan was given them"), r0.stderr)
        try refused(["--campaign", "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"], "give --campaign to both")
        try refused(["--out", "postgresql://nobody@127.0.0.1:1/none"], "a database is written by run --decisions")
        // A tile's parts missing; then another plan's beside them.
        let parts = decisions + "/" + TileParts.directoryName(tile: 1)
        try FileManager.default.moveItem(atPath: parts, toPath: parts + ".away")
        try refused([], "tile 1 has no parts")
        let other = try tiledRun(sources + ["--max-distance", "39"], tiles: 3, in: dir.appendingPathComponent("other"))
        try FileManager.default.copyItem(atPath: other + "/" + TileParts.directoryName(tile: 1), toPath: parts)
        try refused([], "is not tile 1's part under the plan")
        try FileManager.default.removeItem(atPath: parts)
        try FileManager.default.moveItem(atPath: parts + ".away", toPath: parts)
        // Another plan's rejects beside it (plan.json holds its rejects' SHA-256).
        let rejects = TilePlan.rejectsPath(plan: decisions + "/plan.json")
        let kept = try Data(contentsOf: URL(fileURLWithPath: rejects))
        try Data("layer,source_row,id,reason\naddresses,1,x,stale\n".utf8).write(to: URL(fileURLWithPath: rejects))
        try refused([], "is not the plan's rejects")
        try kept.write(to: URL(fileURLWithPath: rejects))
        // A part cut short at a record's end, or out of the run's order: their rows are counted and
        // their keys checked, not taken as they are.
        let addressesPart = decisions + "/" + TileParts.directoryName(tile: 2) + "/addresses.geojson.part"
        let whole = try Data(contentsOf: URL(fileURLWithPath: addressesPart))
        try Data().write(to: URL(fileURLWithPath: addressesPart))
        // (Their digests made again, as a tile that wrote them so would: what is behind the digests is checked.)
        let tile2 = decisions + "/" + TileParts.directoryName(tile: 2)
        try Self.rewriteDigests(tile2)
        try refused([], "tile 2's addresses.geojson part holds 0 rows, its counts")
        try whole.write(to: URL(fileURLWithPath: addressesPart + ".whole"))
        let reader = try PartReader(addressesPart + ".whole", tile: 2)
        var records: [(String, ArraySlice<UInt8>)] = []
        while !reader.done { records.append((String(decoding: reader.key, as: UTF8.self), ArraySlice(reader.row))); try reader.advance() }
        XCTAssertGreaterThan(records.count, 100)
        try Data(try TileParts.records(records.reversed())).write(to: URL(fileURLWithPath: addressesPart))
        try Self.rewriteDigests(tile2)
        try refused([], "addresses.geojson.part is not in the run's order")
        try whole.write(to: URL(fileURLWithPath: addressesPart))
        try Self.rewriteDigests(tile2)
        // Tile 0's rows given as tile 1's too (its counts its own): each row is one tile's.
        let tile1 = decisions + "/" + TileParts.directoryName(tile: 1)
        let keptTile1 = try FileManager.default.contentsOfDirectory(atPath: tile1).filter { $0.hasSuffix(".part") }
            .map { ($0, try Data(contentsOf: URL(fileURLWithPath: tile1 + "/" + $0))) }
        for (name, _) in keptTile1 {
            try FileManager.default.removeItem(atPath: tile1 + "/" + name)
            try FileManager.default.copyItem(atPath: decisions + "/" + TileParts.directoryName(tile: 0) + "/" + name, toPath: tile1 + "/" + name)
        }
        try Self.rewriteDigests(tile1)
        try refused([], "is in the links.csv parts of tiles 0 and 1")
        for (name, data) in keptTile1 { try data.write(to: URL(fileURLWithPath: tile1 + "/" + name)) }
        try Self.rewriteDigests(tile1)
        // The parts' directory as --out, even with --overwrite: it is read, never replaced.
        let again = try ProcessRunner.flyrLink(["run"] + sources + ["--out", decisions, "--parts", decisions, "--overwrite"])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("never replaced"), again.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: decisions + "/plan.json"))
        // A plan named without its directory (the tile's parts go beside it, not to /). The
        // temporary parts an attempt killed on this host left an hour ago are removed (its process
        // is gone); another host's are left (an attempt there may still be writing), and so are
        // this host's of the last hour (a container of the same name may be writing them).
        try FileManager.default.removeItem(atPath: parts)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let host = ProcessInfo.processInfo.hostName, pid = gone.processIdentifier
        let killed = parts + ".tmp-\(host)-\(pid)-\(UUID().uuidString)", recent = parts + ".tmp-\(host)-\(pid)-\(UUID().uuidString)"
        let elsewhere = parts + ".tmp-\(host)-2-\(pid)-\(UUID().uuidString)"  // (host "\(host)-2")
        for leftover in [killed, recent, elsewhere] {
            try FileManager.default.createDirectory(atPath: leftover + "/written", withIntermediateDirectories: true)
            if leftover != recent {
                for path in [leftover + "/written", leftover] {
                    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: path)
                }
            }
        }
        var r = try ProcessRunner.flyrLink(["tile", "outputs", "--plan", "plan.json", "--tile", "1"], cwd: decisions)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: killed))
        XCTAssertTrue(FileManager.default.fileExists(atPath: recent))
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere))
        // Made again, the tile keeps the parts it finds of its plan (the same bytes), never gone
        // for a moment while the merge may read them.
        let inode = { (try FileManager.default.attributesOfItem(atPath: parts)[.systemFileNumber] as? Int) ?? -1 }
        let before = try inode()
        r = try ProcessRunner.flyrLink(["tile", "outputs", "--plan", "plan.json", "--tile", "1"], cwd: decisions)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try inode(), before)
        r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", out, "--parts", decisions])
        XCTAssertEqual(r.status, 0, r.stderr)

        // Two tiles that both claim the whole plane: their rows would be written twice (their counts
        // are more than the plan's: nearly twice, each tile holding what its pack holds).
        let twice = try tiledRun(sources, tiles: 2, in: dir.appendingPathComponent("twice")) { plan in
            for t in plan.tiles.indices { plan.tiles[t].bounds = .everywhere }
        }
        let s = try ProcessRunner.flyrLink(["run"] + sources + ["--out", dir.appendingPathComponent("twice/out").path, "--parts", twice])
        XCTAssertNotEqual(s.status, 0)
        XCTAssertTrue(s.stderr.contains("the tiles' parts hold ") && s.stderr.contains(", the plan 1377 and 482"), s.stderr)
        let held = s.stderr.components(separatedBy: "the tiles' parts hold ").last!.split(separator: " ").first.flatMap { Int($0) } ?? 0
        XCTAssertGreaterThan(held, 1377, s.stderr)
    }

    /// A links-only run (the plan and the tiles told so), a GeoParquet one and a GeoPackage from
    /// the same kind of parts.
    func testLinksOnlyGeoParquetAndGeoPackageOutputsFromTheTilesParts() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        for (name, options) in [("links", ["--only", "links"]), ("parquet", ["--format", "parquet"])] {
            let planned = name == "links" ? options : []
            let decisions = try tiledRun(sources + planned, tiles: 4, in: dir.appendingPathComponent(name))
            var r = try ProcessRunner.flyrLink(["run"] + sources + options + ["--out", dir.appendingPathComponent("\(name)/one").path])
            XCTAssertEqual(r.status, 0, r.stderr)
            r = try ProcessRunner.flyrLink(["run"] + sources + options + ["--out", dir.appendingPathComponent("\(name)/merged").path,
                                                                          "--parts", decisions])
            XCTAssertEqual(r.status, 0, r.stderr)
            let files = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("\(name)/one").path).sorted()
            XCTAssertEqual(files, try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("\(name)/merged").path).sorted())
            // (Links only: no addresses; GeoParquet: the addresses as such, not GeoJSON.)
            XCTAssertFalse(files.contains("addresses.geojson"))
            XCTAssertEqual(files.contains("addresses.parquet"), name == "parquet", files.joined(separator: " "))
            for file in files {
                let one = try Self.withoutTimings(file, Data(contentsOf: dir.appendingPathComponent("\(name)/one/\(file)")))
                XCTAssertEqual(one, try Self.withoutTimings(file, Data(contentsOf: dir.appendingPathComponent("\(name)/merged/\(file)"))), "\(name)/\(file)")
            }
        }
        // A GeoPackage (one file, its report without the timings): the parts of the GeoParquet run's plan.
        let decisions = dir.appendingPathComponent("parquet/decisions").path
        for (name, step) in [("one.gpkg", [String]()), ("merged.gpkg", ["--parts", decisions])] {
            let r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", dir.appendingPathComponent(name).path] + step)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("one.gpkg")), try Data(contentsOf: dir.appendingPathComponent("merged.gpkg")))
    }

    /// GeoParquet sources: each tile reads only the row groups (and rows) that meet its halo.
    func testATiledRunOfGeoParquetSourcesWritesOneRunsOutputs() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.fixture("city2k/buildings.snappy.parquet"),
                       "--addresses", TestPaths.fixture("city2k/addresses.zstd.parquet"), "--parquet-reader", "flyr"]
        let decisions = try tiledRun(sources, tiles: 5, in: dir)
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)
        // A tile's read box is a small part of the city's.
        let plan = try TilePlan.read(decisions + "/plan.json")
        XCTAssertEqual(plan.packed, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: decisions + "/plan.packs"))
        let city = plan.tiles.reduce(BBox.empty) { var b = $0; b.extend($1.linkReadBox); return b }
        let area = { (b: BBox) in (b.maxX - b.minX) * (b.maxY - b.minY) }
        XCTAssertTrue(plan.tiles.allSatisfy { area($0.measureReadBox) < 0.5 * area(city) })
        // The tiles' measures, read in parts, are to the byte those of one tile that reads everything.
        _ = try tiledRun(sources, tiles: 1, in: dir.appendingPathComponent("whole"))
        XCTAssertEqual(try TileMeasures.read(dir.appendingPathComponent("measures.json").path).measures,
                       try TileMeasures.read(dir.appendingPathComponent("whole/measures.json").path).measures)

        // Halos too small (20 m): the comparison above would have seen it. (The outputs pass
        // refuses such a plan: an address in its halo is linked to a building it does not read.)
        let narrow = try tiledRun(sources, tiles: 5, in: dir.appendingPathComponent("narrow"), outputs: false) { plan in
            for t in plan.tiles.indices {
                plan.tiles[t].linkHalo = .init(addresses: 20, buildings: 20)
                plan.tiles[t].linkReadBox = plan.tiles[t].measureReadBox
            }
        }
        var r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", dir.appendingPathComponent("narrow/out").path, "--decisions", narrow])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotEqual(try Data(contentsOf: dir.appendingPathComponent("one/links.csv")),
                          try Data(contentsOf: dir.appendingPathComponent("narrow/out/links.csv")))
        // Parts of one plan are refused by another's sum.
        r = try ProcessRunner.flyrLink(["tile", "sum", "--plan", narrow + "/plan.json"]
                                       + (0..<5).map { dir.appendingPathComponent("part-\($0).json").path }
                                       + ["--out", dir.appendingPathComponent("mixed.json").path])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("made for another plan"), r.stderr)
    }

    /// A partitioned dataset in a local directory (Overture's layout: parts under hive-style
    /// directories, a marker file beside them) is one layer, its parts in path order and its rows
    /// numbered through them, as an S3 prefix: city2k's buildings cut in two files give what the
    /// whole file gives, in one run and in tiles; the plan fingerprints each part, and a part added
    /// since refuses the tiles.
    func testATiledRunOfALocalPartitionedDatasetWritesOneRunsOutputs() throws {
        let dir = TestPaths.temporaryDirectory(self)
        // The dataset named by a symbolic link; its second part in a directory reached by one, and
        // a link back up (a loop) beside it: links are followed, a directory read once.
        let fm = FileManager.default
        let real = dir.appendingPathComponent("buildings-real"), theme = real.appendingPathComponent("theme=buildings")
        let elsewhere = dir.appendingPathComponent("elsewhere")
        try fm.createDirectory(at: theme, withIntermediateDirectories: true)
        try fm.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try fm.copyItem(atPath: TestPaths.fixture("city2k-parts/part-0.snappy.parquet"), toPath: theme.appendingPathComponent("part-0.snappy.parquet").path)
        try fm.copyItem(atPath: TestPaths.fixture("city2k-parts/part-1.snappy.parquet"), toPath: elsewhere.appendingPathComponent("part-1.snappy.parquet").path)
        try fm.createSymbolicLink(atPath: theme.appendingPathComponent("zz").path, withDestinationPath: elsewhere.path)
        try fm.createSymbolicLink(atPath: theme.appendingPathComponent("loop").path, withDestinationPath: "..")
        _ = fm.createFile(atPath: real.appendingPathComponent("_SUCCESS").path, contents: Data())
        let dataset = dir.appendingPathComponent("buildings")
        try fm.createSymbolicLink(atPath: dataset.path, withDestinationPath: real.path)
        // (One campaign: by default it is named after the sources.)
        let addresses = ["--addresses", TestPaths.fixture("city2k/addresses.zstd.parquet"), "--parquet-reader", "flyr",
                         "--campaign", "0b7f3c1e-5d2a-4e8b-9c6f-2a1d3e4f5a6b"]
        let sources = ["--buildings", dataset.path] + addresses
        let decisions = try tiledRun(sources, tiles: 4, in: dir)
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)
        let whole = dir.appendingPathComponent("whole")
        var r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.fixture("city2k/buildings.snappy.parquet")] + addresses + ["--out", whole.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        for file in RunWriter.files where !file.hasPrefix("report.") {
            XCTAssertEqual(try Data(contentsOf: whole.appendingPathComponent(file)), try Data(contentsOf: dir.appendingPathComponent("one/\(file)")), file)
        }
        XCTAssertGreaterThan(try OutputFiles.csv(whole.appendingPathComponent("links.csv").path).count, 1000)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("one/report.json"))) as? [String: Any])
        let inputs = try XCTUnwrap(report["inputs"] as? [String: Any]), buildings = try XCTUnwrap(inputs["buildings"] as? [String: Any])
        XCTAssertEqual((buildings["parquet"] as? [String: Any])?["row_groups_total"] as? Int, 4)
        XCTAssertEqual(buildings["accepted"] as? Int, 2000)

        let plan = try TilePlan.read(decisions + "/plan.json")
        XCTAssertEqual(plan.inputs.map { ($0.path as NSString).lastPathComponent }.filter { $0.hasPrefix("part-") }.sorted(),
                       ["part-0.snappy.parquet", "part-1.snappy.parquet"])
        try FileManager.default.copyItem(atPath: TestPaths.fixture("city2k-parts/part-1.snappy.parquet"),
                                         toPath: theme.appendingPathComponent("part-2.snappy.parquet").path)
        let part = dir.appendingPathComponent("added.json").path
        r = try ProcessRunner.flyrLink(["tile", "measures", "--plan", decisions + "/plan.json", "--tile", "0", "--out", part])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("part-2.snappy.parquet is a part of a source the plan was made without"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: part))
    }

    /// Tile edges put on purpose through the middle of a townhouse row (the East Venice Blvd rows
    /// of la_dev): the row's doors are decided by two tiles, and its slices are still one run's.
    func testATileEdgeThroughATownhouseRow() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses, "--height-unit", "ft"]
        let r = try ProcessRunner.flyrLink(["run"] + sources + ["--out", dir.appendingPathComponent("look").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The row with the most units, and its doors' points.
        let links = try OutputFiles.csv(dir.appendingPathComponent("look/links.csv").path).filter { !($0["unit_id"] ?? "").isEmpty }
        let row = Dictionary(grouping: links, by: { $0["building_id"]! }).max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }!
        XCTAssertGreaterThanOrEqual(row.value.count, 4)
        let doors = Set(row.value.map { $0["address_id"]! })
        let points = try OutputFiles.geojson(dir.appendingPathComponent("look/addresses.geojson").path).compactMap { f -> Point2? in
            guard doors.contains(OutputFiles.properties(f)["id"] as! String) else { return nil }
            let c = (f["geometry"] as! [String: Any])["coordinates"] as! [Double]
            return Point2(x: c[0], y: c[1])
        }
        XCTAssertEqual(points.count, doors.count)
        var cut = (x: 0.0, y: 0.0)
        let decisions = try tiledRun(sources, tiles: 2, in: dir) { plan in
            // Across the row's longer side, between its middle two doors.
            let metric = points.map { plan.frame.transverseMercator.forward($0) }
            let xs = metric.map(\.x).sorted(), ys = metric.map(\.y).sorted()
            let alongX = xs.last! - xs.first! >= ys.last! - ys.first!
            let middle = alongX ? xs : ys
            let at = (middle[middle.count / 2 - 1] + middle[middle.count / 2]) / 2
            cut = alongX ? (at, .nan) : (.nan, at)
            plan.tiles[0].bounds = alongX ? TileBounds(maxX: at) : TileBounds(maxY: at)
            plan.tiles[1].bounds = alongX ? TileBounds(minX: at) : TileBounds(minY: at)
        }
        let plan = try TilePlan.read(decisions + "/plan.json")
        let sides = Set(points.map { p in plan.tiles.firstIndex { $0.bounds.contains(plan.frame.transverseMercator.forward(p)) }! })
        XCTAssertEqual(sides, [0, 1], "the cut (\(cut)) runs through the row")
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)
        XCTAssertGreaterThan(try Data(contentsOf: dir.appendingPathComponent("tiled/units.geojson")).count, 100)
    }

    /// A step's files name the plan they were made for: another plan's are refused.
    func testStepsRefuseAnotherPlansFiles() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        let decisions = try tiledRun(sources, tiles: 3, in: dir)
        // A new plan (other tiles) beside the old decisions.
        var r = try ProcessRunner.flyrLink(["plan"] + sources + ["--tiles", "3", "--max-distance", "39", "--out", decisions + "/plan.json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try ProcessRunner.flyrLink(["run"] + sources + ["--max-distance", "39", "--out", dir.appendingPathComponent("out").path,
                                                            "--decisions", decisions])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("were made under another plan"), r.stderr)
        r = try ProcessRunner.flyrLink(["tile", "link", "--plan", decisions + "/plan.json", "--tile", "0", "--measures",
                                        dir.appendingPathComponent("measures.json").path, "--out", dir.appendingPathComponent("x").path])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("not those of every tile of this plan"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    /// A layer that repeats an id: one run keeps its first row, which a tile reading a part cannot
    /// know, so the plan packs it (here GeoJSON, packed anyway; see the FlatGeobuf test for a
    /// layer packed for its repeats alone).
    func testARepeatedIDIsPacked() throws {
        let dir = TestPaths.temporaryDirectory(self)
        var collection = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestPaths.helsinkiBuildings))) as! [String: Any]
        var features = collection["features"] as! [Any]
        features.append(features[0])
        collection["features"] = features
        let buildings = dir.appendingPathComponent("buildings.geojson")
        try JSONSerialization.data(withJSONObject: collection).write(to: buildings)
        let sources = ["--buildings", buildings.path, "--addresses", TestPaths.helsinkiAddresses]
        let decisions = try tiledRun(sources, tiles: 3, in: dir)
        XCTAssertEqual(try TilePlan.read(decisions + "/plan.json").packed, [.buildings, .addresses])
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)
    }

    /// FlatGeobuf sources with a spatial index: each tile reads the features its search finds.
    func testATiledRunOfIndexedFlatGeobufSourcesWritesOneRunsOutputs() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let buildings = dir.appendingPathComponent("buildings.fgb").path, addresses = dir.appendingPathComponent("addresses.fgb").path
        try ProcessRunner.ogr2ogr(["-f", "FlatGeobuf", buildings, TestPaths.helsinkiBuildings])
        try ProcessRunner.ogr2ogr(["-f", "FlatGeobuf", addresses, TestPaths.helsinkiAddresses])
        let sources = ["--buildings", buildings, "--addresses", addresses]
        let decisions = try tiledRun(sources, tiles: 6, in: dir)
        XCTAssertEqual(try TilePlan.read(decisions + "/plan.json").packed, [])
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)

        // A FlatGeobuf layer that repeats an id is packed; the other is still read in parts. The
        // repeat: an address given first elsewhere (1.2 km off, another number), which one run
        // keeps and a read of a part near the second would not know of.
        let repeated = dir.appendingPathComponent("repeated")
        try FileManager.default.createDirectory(at: repeated, withIntermediateDirectories: true)
        var collection = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: TestPaths.helsinkiAddresses))) as! [String: Any]
        let features = collection["features"] as! [[String: Any]]
        var moved = features[700], geometry = moved["geometry"] as! [String: Any], properties = moved["properties"] as! [String: Any]
        geometry["coordinates"] = (features[464]["geometry"] as! [String: Any])["coordinates"]
        properties["addr:housenumber"] = "99"
        moved["geometry"] = geometry
        moved["properties"] = properties
        collection["features"] = [moved] + features
        try JSONSerialization.data(withJSONObject: collection).write(to: repeated.appendingPathComponent("addresses.geojson"))
        let twice = repeated.appendingPathComponent("addresses.fgb").path
        try ProcessRunner.ogr2ogr(["-f", "FlatGeobuf", twice, repeated.appendingPathComponent("addresses.geojson").path])
        let mixed = ["--buildings", buildings, "--addresses", twice]
        let mixedDecisions = try tiledRun(mixed, tiles: 4, in: repeated)
        let mixedPlan = try TilePlan.read(mixedDecisions + "/plan.json")
        XCTAssertEqual(mixedPlan.packed, [.addresses])
        // (A tile reads the second row of the id, not the first.)
        let point = { (f: [String: Any]) -> Point2 in
            let c = (f["geometry"] as! [String: Any])["coordinates"] as! [Double]
            return Point2(x: c[0], y: c[1])
        }
        XCTAssertTrue(mixedPlan.tiles.contains { $0.linkReadBox.contains(point(features[700])) && !$0.linkReadBox.contains(point(moved)) })
        try assertOneRunsOutputs(mixed, decisions: mixedDecisions, in: repeated)
        XCTAssertTrue(try String(contentsOf: repeated.appendingPathComponent("one/rejects.csv"), encoding: .utf8).contains("duplicate id"))
    }

    func testATileRefusesSourcesChangedSinceThePlan() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let addresses = dir.appendingPathComponent("addresses.geojson")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: TestPaths.helsinkiAddresses), to: addresses)
        let plan = dir.appendingPathComponent("plan.json").path
        var r = try ProcessRunner.flyrLink(["plan", "--buildings", TestPaths.helsinkiBuildings, "--addresses", addresses.path,
                                            "--tiles", "2", "--out", plan])
        XCTAssertEqual(r.status, 0, r.stderr)
        let handle = try FileHandle(forWritingTo: addresses)
        handle.seekToEndOfFile()
        handle.write(Data("\n".utf8))
        try handle.close()
        let part = dir.appendingPathComponent("part.json").path
        r = try ProcessRunner.flyrLink(["tile", "measures", "--plan", plan, "--tile", "0", "--out", part])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("is not the file the plan was made from"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: part))
        r = try ProcessRunner.flyrLink(["tile", "measures", "--plan", plan, "--tile", "2", "--out", part])
        XCTAssertTrue(r.stderr.contains("there is no tile 2"), r.stderr)
    }
}
