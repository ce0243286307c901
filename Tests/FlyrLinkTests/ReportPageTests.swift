import SyntheticCity
import XCTest
@testable import FlyrLink

/// report.html: the drawing (coordinates to SVG, colour scales), the choice of the worst spots,
/// and the page of real runs — deterministic, self-contained, redrawn identically from the files.
final class ReportPageTests: XCTestCase {
    // MARK: drawing

    func testMetresMapToPixelsTrueToScaleNorthUp() {
        var map = SVGMap(window: BBox(minX: 100, minY: 200, maxX: 300, maxY: 300), fitting: 400)
        XCTAssertEqual(map.scale, 2)
        XCTAssertEqual(map.width, 400)
        XCTAssertEqual(map.height, 200)
        XCTAssertTrue(map.px(Point2(x: 100, y: 300)) == (0, 0))      // north-west corner: top left
        XCTAssertTrue(map.px(Point2(x: 150, y: 250)) == (100, 100))
        XCTAssertTrue(map.px(Point2(x: 300, y: 200)) == (400, 200))  // south-east: bottom right
        let square = Footprint(polygons: [Polygon(rings: [[Point2(x: 110, y: 210), Point2(x: 120, y: 210), Point2(x: 120, y: 220.04),
                                                            Point2(x: 110, y: 220.04), Point2(x: 110, y: 210)]])])
        map.footprint(square, fill: "#fff", stroke: "#000")
        XCTAssertEqual(map.body, "<path d=\"M20 180L40 180L40 159.9L20 159.9L20 180Z\" fill=\"#fff\" fill-rule=\"evenodd\" stroke=\"#000\" stroke-width=\"1\"/>\n")
        // A tall window fits by its height.
        let tall = SVGMap(window: BBox(minX: 0, minY: 0, maxX: 50, maxY: 100), fitting: 400)
        XCTAssertEqual(tall.height, 400)
        XCTAssertEqual(tall.width, 200)
    }

    func testTextIsEscapedInLabelsAndTitles() {
        var map = SVGMap(window: BBox(minX: 0, minY: 0, maxX: 10, maxY: 10), fitting: 100)
        map.label("12<b>&\"'", at: Point2(x: 5, y: 5))
        XCTAssertTrue(map.body.contains(">12&lt;b&gt;&amp;&quot;&#39;</text>"), map.body)
        XCTAssertFalse(map.body.contains("<b>"))
    }

    func testRoundLengths() {
        XCTAssertEqual(SVGMap.roundLength(37), 20)
        XCTAssertEqual(SVGMap.roundLength(7.9), 5)
        XCTAssertEqual(SVGMap.roundLength(1500), 1000)
        XCTAssertEqual(OverviewGrid.roundUp(37), 50)
        XCTAssertEqual(OverviewGrid.roundUp(50), 50)
        XCTAssertEqual(OverviewGrid.roundUp(0.3), 0.5)
        XCTAssertEqual(OverviewGrid.roundUp(1100), 2000)
        XCTAssertEqual(SVGMap.lengthText(2000), "2 km")
        XCTAssertEqual(SVGMap.lengthText(20), "20 m")
    }

    func testColourScalesRiseWithDoubtAndConfidence() {
        XCTAssertEqual(ColorScale.share(0), ColorScale.shareSteps[0])
        XCTAssertEqual(ColorScale.share(0.01), ColorScale.shareSteps[1])
        XCTAssertEqual(ColorScale.share(0.05), ColorScale.shareSteps[1])
        XCTAssertEqual(ColorScale.share(0.5), ColorScale.shareSteps[5])
        XCTAssertEqual(ColorScale.share(1), ColorScale.shareSteps[6])
        XCTAssertEqual(ColorScale.share(.nan), ColorScale.shareSteps[0])
        // Each step at least as dark as the one before (sum of channels).
        func darkness(_ hex: String) -> Int {
            let v = Int(hex.dropFirst(), radix: 16)!
            return 765 - (v >> 16 & 255) - (v >> 8 & 255) - (v & 255)
        }
        for (a, b) in zip(ColorScale.shareSteps, ColorScale.shareSteps.dropFirst()) { XCTAssertLessThan(darkness(a), darkness(b), "\(a) \(b)") }
        XCTAssertEqual(ColorScale.confidence(0.5), "#d7301f")
        XCTAssertEqual(ColorScale.confidence(0.699), "#f46d43")
        XCTAssertEqual(ColorScale.confidence(0.7), "#fdae61")
        XCTAssertEqual(ColorScale.confidence(1), "#1a9850")
    }

    func testOverviewGridStaysSmallAtAnySize() {
        for side in [150.0, 3_000, 250_000] {
            let grid = OverviewGrid(extent: BBox(minX: -side / 2, minY: -side / 3, maxX: side / 2, maxY: side / 3))
            XCTAssertLessThanOrEqual(grid.columns, ReportSettings.overviewCells + 1, "\(side)")
            XCTAssertLessThanOrEqual(grid.rows, ReportSettings.overviewCells + 1, "\(side)")
            XCTAssertTrue(grid.bounds.contains(Point2(x: side / 2, y: side / 3)))
            XCTAssertTrue(grid.bounds.contains(Point2(x: -side / 2, y: -side / 3)))
        }
        var grid = OverviewGrid(extent: BBox(minX: 0, minY: 0, maxX: 95, maxY: 35))
        XCTAssertEqual(grid.cell, 10)
        grid.addAddress(at: Point2(x: 1, y: 1), doubtful: true)
        grid.addAddress(at: Point2(x: 2, y: 2), doubtful: false)
        grid.addAddress(at: Point2(x: 95, y: 35), doubtful: false)
        grid.addBuilding(at: Point2(x: 50, y: 20))
        grid.addAddress(at: Point2(x: -5, y: 0), doubtful: true)  // outside: not counted
        XCTAssertEqual(grid.addresses.reduce(0, +), 3)
        XCTAssertEqual(grid.addresses[0], 2)
        XCTAssertEqual(grid.doubtful[0], 1)
        XCTAssertEqual(grid.buildings[grid.index(of: Point2(x: 50, y: 20))!], 1)
    }

    // MARK: worst spots

    func testDoubtWeights() {
        XCTAssertEqual(WorstSpots.weight(of: .unlinked), 1000)
        XCTAssertEqual(WorstSpots.weight(of: AddressOutcome(building: "b", method: .exact, confidence: 0.5, distance: 0)), 1000)
        XCTAssertEqual(WorstSpots.weight(of: AddressOutcome(building: "b", method: .exact, confidence: 0.65, distance: 0)), 500)
        XCTAssertEqual(WorstSpots.weight(of: AddressOutcome(building: "b", method: .proximity, confidence: 0.8, distance: 3)), 0)
        XCTAssertEqual(WorstSpots.weight(of: AddressOutcome(building: "b", method: .exact, confidence: 0.99, distance: 0)), 0)
    }

    /// The worst cluster first, windows never overlapping, and the same spots whatever the order
    /// of the addresses.
    func testWorstSpotsAreTheDensestDoubtAndDoNotDependOnOrder() {
        var rng = SeededGenerator(seed: 7)
        var points: [Point2] = [], weights: [Int32] = []
        func add(_ x: Double, _ y: Double, _ w: Int32) { points.append(Point2(x: x, y: y)); weights.append(w) }
        for _ in 0..<2000 { add(Double.random(in: -2000...2000, using: &rng), Double.random(in: -2000...2000, using: &rng), 0) }
        for k in 0..<6 { add(1015 + Double(k), -490 + Double(k), 1000) }       // six unlinked, straddling a cell edge
        for k in 0..<4 { add(-700 + Double(k) * 3, 300, 1000) }                 // four unlinked
        for k in 0..<5 { add(-700 + Double(k) * 3, 330, 400) }                  // beside them, unsure (2000 in all)
        for k in 0..<3 { add(200, 200 + Double(k), 1000) }                       // three unlinked
        add(1500, 1500, 1000)                                                    // one alone
        let spots = findSpots(positions: points, weights: weights, unlinked: { weights[$0] == 1000 }, unsure: { weights[$0] == 400 },
                                    cell: 40, count: 3)
        XCTAssertEqual(spots.count, 3)
        XCTAssertEqual(spots.map(\.score), [6000, 6000, 3000])
        // Equal scores: the northern one first.
        XCTAssertTrue(spots[0].window.contains(Point2(x: -700, y: 300)) && spots[0].window.contains(Point2(x: -688, y: 330)), "\(spots[0])")
        XCTAssertEqual(spots[0].unlinked, 4)
        XCTAssertEqual(spots[0].unsure, 5)
        XCTAssertTrue(spots[1].window.contains(Point2(x: 1015, y: -490)) && spots[1].window.contains(Point2(x: 1020, y: -485)))
        XCTAssertEqual(spots[1].unlinked, 6)
        XCTAssertEqual(spots[1].centre.x, 1017.5, accuracy: 1e-9)
        XCTAssertTrue(spots[2].window.contains(Point2(x: 200, y: 201)))
        for (i, a) in spots.enumerated() {
            for b in spots[(i + 1)...] { XCTAssertFalse(abs(a.cellX - b.cellX) < 2 && abs(a.cellY - b.cellY) < 2, "windows overlap") }
        }
        // Shuffled: the same spots, the same counts (the centres up to the order of a sum).
        var order = Array(points.indices)
        order.shuffle(using: &rng)
        let shuffled = findSpots(positions: order.map { points[$0] }, weights: order.map { weights[$0] },
                                       unlinked: { weights[order[$0]] == 1000 }, unsure: { weights[order[$0]] == 400 }, cell: 40, count: 3)
        XCTAssertEqual(shuffled.map(\.window), spots.map(\.window))
        XCTAssertEqual(shuffled.map(\.score), spots.map(\.score))
        XCTAssertEqual(shuffled.map(\.addresses), spots.map(\.addresses))
        XCTAssertEqual(shuffled.map(\.unlinked), spots.map(\.unlinked))
    }

    /// The spots chosen from the first 9 × count windows only are those a sort of every window
    /// gives, where thousands of windows hold doubt (the kept windows are trimmed many times).
    func testSpotsFromTheFirstWindowsAreThoseOfEveryWindowSorted() {
        var rng = SeededGenerator(seed: 11)
        var cells = WorstSpots.Cells(cell: 40)
        for _ in 0..<20_000 {
            // Clustered and spread doubt, with many equal scores (ties by position).
            let spread = Bool.random(using: &rng) ? 300.0 : 3000.0
            cells.add(Point2(x: Double.random(in: -spread...spread, using: &rng), y: Double.random(in: -spread...spread, using: &rng)),
                      weight: [1000, 500, 250].randomElement(using: &rng)!)
        }
        // Every window holding a doubtful cell, scored and sorted whole: the choice before it was bounded.
        var windows: [(x: Int, y: Int, score: Int)] = []
        var seen = Set<Int64>()
        for k in cells.weight.keys {
            let cx = Int(k >> 32), cy = Int(Int32(truncatingIfNeeded: k))
            for ax in (cx - 1)...cx {
                for ay in (cy - 1)...cy where seen.insert(WorstSpots.key(ax, ay)).inserted {
                    var s = 0
                    for dx in 0...1 { for dy in 0...1 { s += cells.weight[WorstSpots.key(ax + dx, ay + dy)] ?? 0 } }
                    windows.append((ax, ay, s))
                }
            }
        }
        XCTAssertGreaterThan(windows.count, 1000)
        windows.sort { a, b in a.score != b.score ? a.score > b.score : a.y != b.y ? a.y > b.y : a.x < b.x }
        for count in [1, 3, 10, 40] {
            var expected: [(x: Int, y: Int, score: Int)] = []
            for w in windows where expected.count < count {
                if !expected.contains(where: { abs($0.x - w.x) < 2 && abs($0.y - w.y) < 2 }) { expected.append(w) }
            }
            let chosen = cells.choose(count: count)
            XCTAssertEqual(chosen.map(\.cellX), expected.map(\.x), "count \(count)")
            XCTAssertEqual(chosen.map(\.cellY), expected.map(\.y), "count \(count)")
            XCTAssertEqual(chosen.map(\.score), expected.map(\.score), "count \(count)")
        }
    }

    func testTopKeepsTheFirstKInOrder() {
        let values = [5, 1, 9, 9, 3, 7, 9, 0]
        func top(_ k: Int) -> [Int] {
            var rows = TopRows<Int>(k) { values[$0] != values[$1] ? values[$0] > values[$1] : $0 < $1 }
            for i in values.indices { rows.offer(i) }
            return rows.rows
        }
        XCTAssertEqual(top(3), [2, 3, 6])
        XCTAssertEqual(top(10).count, 8)
    }

    // MARK: pages of real runs

    private func helsinki(threads: Int, only: RunOptions.OutputSelection = .all, out: String) throws -> LinkRun {
        var options = RunOptions(buildings: SourceSpec(location: TestPaths.helsinkiBuildings),
                                 addresses: SourceSpec(location: TestPaths.helsinkiAddresses), output: out)
        options.threads = threads
        options.only = only
        options.campaignID = "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"
        let run = try LinkPipeline(options: options).run()
        try RunWriter.write(run)
        return run
    }

    private func page(_ dir: String) throws -> String {
        try String(contentsOfFile: "\(dir)/report.html", encoding: .utf8)
    }

    /// Same run, same page whatever the thread count (but for the wall times); `flyr-link report`
    /// redraws the very same bytes from the files; the page holds everything it shows.
    func testHelsinkiPageIsDeterministicSelfContainedAndRedrawnIdentically() throws {
        let base = TestPaths.temporaryDirectory(self)
        let one = base.appendingPathComponent("t1").path, two = base.appendingPathComponent("t2").path
        let run = try helsinki(threads: 1, out: one)
        _ = try helsinki(threads: 2, out: two)
        let page1 = try page(one), page2 = try page(two)
        XCTAssertEqual(ReportText.withoutRunSection(page1), ReportText.withoutRunSection(page2))
        XCTAssertNotEqual(ReportText.withoutRunSection(page1), page1, "the wall times are marked")

        let written = try Data(contentsOf: URL(fileURLWithPath: "\(one)/report.html"))
        try FileManager.default.removeItem(atPath: "\(one)/report.html")
        XCTAssertEqual(try ReportFile.redraw(directory: one), "\(one)/report.html")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(one)/report.html")), written, "redrawn from the files, byte for byte")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: one).contains { $0.contains(".tmp-") }, "no temporary file left")

        // Self-contained: nothing is loaded from elsewhere; the only URLs are OpenStreetMap links.
        for needle in ["src=", "<link", "@import", "url(", "http://"] { XCTAssertFalse(page1.contains(needle), needle) }
        let links = page1.components(separatedBy: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        XCTAssertTrue(links.allSatisfy { $0.hasPrefix("#") || $0.hasPrefix("https://www.openstreetmap.org/?mlat=") }, "\(links)")
        XCTAssertEqual(links.filter { $0.hasPrefix("#spot-") }.count, 3, "the three most doubtful spots are linked from the summary")

        // The numbers of report.json.
        let c = run.report.counts
        XCTAssertTrue(page1.contains("\(c.addresses) addresses → <b>\(c.linked) linked</b>, <b>\(c.unlinked) unlinked</b>"))
        for (reason, n) in c.unlinkedByReason { XCTAssertTrue(page1.contains("<tr><th>· \(reason)</th><td class=\"n\">\(n)</td></tr>"), reason) }
        XCTAssertTrue(page1.contains("buildings: degenerate footprint"), "rejects by reason")
        // Ten spots, each a map with an OpenStreetMap link at its coordinates.
        XCTAssertEqual(page1.components(separatedBy: "<figure id=\"spot-").count - 1, ReportSettings.spotCount)
        XCTAssertEqual(page1.components(separatedBy: "<svg class=\"spot\"").count - 1, ReportSettings.spotCount)
        XCTAssertTrue(page1.contains("#map=19/60.1"))
        // The worst spot holds unlinked addresses, drawn as crosses.
        let model = try ReportModel(run)
        XCTAssertGreaterThan(model.spots[0].spot.unlinked + model.spots[0].spot.unsure, 0)
        XCTAssertGreaterThanOrEqual(model.spots[0].spot.score, model.spots[1].spot.score)
        XCTAssertLessThan(written.count, 1_000_000)
    }

    /// The decoder reads report.json back to the same report (acronyms and dictionary keys kept).
    func testReportJSONReadsBackToTheSameBytes() throws {
        let dir = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        _ = try helsinki(threads: 2, out: dir)
        let json = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/report.json"))
        let decoded = try RunWriter.reportDecoder().decode(RunReport.self, from: json)
        let again = "\(dir)/again.json"
        try RunWriter.writeReport(decoded, to: again)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: again)), json)
    }

    /// A links-only output has no geometry: summary and tables, no maps; redrawn from links.csv.
    func testLinksOnlyPageHasTablesAndNoMaps() throws {
        let dir = TestPaths.temporaryDirectory(self).appendingPathComponent("links").path
        let run = try helsinki(threads: 2, only: .links, out: dir)
        let page = try page(dir)
        XCTAssertTrue(page.contains("Not drawn: this output holds no geometry"))
        XCTAssertFalse(page.contains("<svg class=\"overview\""))
        XCTAssertTrue(page.contains("<section id=\"long-links\">"))
        XCTAssertTrue(page.contains(try ReportModel(run).longLinks[0].address.id))
        try ReportFile.redraw(directory: dir)
        let redrawn = try self.page(dir)
        XCTAssertTrue(redrawn.contains("Not drawn: this output holds no geometry"))
        XCTAssertEqual(redrawn.components(separatedBy: "<tr>").count, page.components(separatedBy: "<tr>").count)
    }

    /// Townhouse unit slices in a spot's view are outlined (la-venice has rows of townhomes).
    func testTownhouseSlicesAreOutlinedWhenASpotHoldsThem() throws {
        let dir = TestPaths.temporaryDirectory(self).appendingPathComponent("rows").path
        var options = RunOptions(buildings: SourceSpec(location: TestPaths.rowsBuildings), addresses: SourceSpec(location: TestPaths.rowsAddresses),
                                 output: dir)
        options.threads = 2
        let run = try LinkPipeline(options: options).run()
        XCTAssertFalse(run.units.isEmpty)
        let model = try ReportModel(run)
        let slicesShown = model.spots.reduce(0) { $0 + $1.units.count }
        XCTAssertGreaterThan(slicesShown, 0)
        let page = try ReportPage.make(run)
        XCTAssertEqual(page.components(separatedBy: "stroke=\"\(ColorScale.unitStroke)\"").count - 1, slicesShown)
        XCTAssertEqual(model.busiest.first.map { $0.addresses }, model.busiest.map(\.addresses).max())
        XCTAssertTrue(model.busiest.contains { $0.units > 0 }, "townhouse rows among the busiest")
        // Redrawn from units.geojson too, byte for byte.
        try RunWriter.write(run)
        let written = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/report.html"))
        try ReportFile.redraw(directory: dir)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(dir)/report.html")), written)
    }

    /// A snapshot version carries the page, and `flyr-link report` redraws it from the version's
    /// files (its layers gzipped) byte for byte.
    func testSnapshotVersionPageIsRedrawnIdentically() throws {
        let f = SnapshotFixture(dir: TestPaths.temporaryDirectory(self))
        try f.write()
        let r = try ProcessRunner.flyrLink(f.arguments)
        XCTAssertEqual(r.status, 0, r.stderr)
        let version = f.version("v000001").path
        let written = try Data(contentsOf: URL(fileURLWithPath: "\(version)/report.html"))
        XCTAssertTrue(String(decoding: written, as: UTF8.self).contains("<svg class=\"overview\""))
        let redraw = try ProcessRunner.flyrLink(["report", version])
        XCTAssertEqual(redraw.status, 0, redraw.stderr)
        XCTAssertEqual(redraw.stdout, "\(version)/report.html\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: "\(version)/report.html")), written)
        XCTAssertEqual(SnapshotManifest.verify(f.version("v000001")), [], "the manifest's checksum still holds")
    }

    /// Bad input to `flyr-link report`: one line on stderr, non-zero exit, nothing written.
    func testReportCommandRefusesWhatIsNotAnOutputDirectory() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let missing = try ProcessRunner.flyrLink(["report", dir.appendingPathComponent("nowhere").path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("is not a directory"), missing.stderr)
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let notOutput = try ProcessRunner.flyrLink(["report", empty.path])
        XCTAssertNotEqual(notOutput.status, 0)
        XCTAssertEqual(notOutput.stderr.split(separator: "\n").count, 1, notOutput.stderr)
        XCTAssertTrue(notOutput.stderr.contains("no report.json"), notOutput.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: empty.path), [])
        try Data("{\"tool\": 1}".utf8).write(to: empty.appendingPathComponent("report.json"))
        let broken = try ProcessRunner.flyrLink(["report", empty.path])
        XCTAssertNotEqual(broken.status, 0)
        XCTAssertEqual(broken.stderr.split(separator: "\n").count, 1, broken.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: empty.path), ["report.json"])
    }

    /// `--no-html` (and `html = false`): no page.
    func testNoHTMLWritesNoPage() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", out, "--no-html", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(out)/report.html"))
        XCTAssertFalse(r.stdout.contains("report:"), r.stdout)
        let toml = TestPaths.temporaryDirectory(self).appendingPathComponent("p.toml")
        try Data("buildings = \"b.geojson\"\naddresses = \"a.geojson\"\nout = \"o\"\nhtml = false\n".utf8).write(to: toml)
        XCTAssertEqual(try PipelineFile.load(toml.path).html, false)
        XCTAssertFalse(try PipelineFile.load(toml.path).options().writeHTML)
        XCTAssertTrue(try RunRequest().merged(over: PipelineFile.load(toml.path)).options().writeHTML == false)
    }

    /// `flyr-link report --truth`: the reliability curve, per band the share of links whose building
    /// is the truth file's (here links.csv itself, every fourth row made wrong and every tenth left out).
    func testReliabilityAgainstATruthFile() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out").path
        let run = try helsinki(threads: 2, out: out)
        let links = try OutputFiles.csv("\(out)/links.csv")
        var truth = "address_id,building_id\n"
        var expected = [(links: Int, correct: Int)](repeating: (0, 0), count: RunSummary.bands.count)
        for (k, row) in links.enumerated() where k % 10 != 9 {
            let wrong = k % 4 == 0
            truth += "\(row["address_id"]!),\(wrong ? "elsewhere" : row["building_id"]!)\n"
            let band = RunSummary.bandIndex(of: Double(row["confidence"]!)!)
            expected[band].links += 1
            if !wrong { expected[band].correct += 1 }
        }
        let truthFile = dir.appendingPathComponent("truth.csv").path
        try truth.write(toFile: truthFile, atomically: true, encoding: .utf8)
        let r = try ProcessRunner.flyrLink(["report", out, "--truth", truthFile])
        XCTAssertEqual(r.status, 0, r.stderr)
        let reliability = try Reliability(try OutputDirectoryContents(directory: out), truth: try Reliability.readTruth(truthFile), truthFile: truthFile)
        XCTAssertEqual(reliability.bands.map(\.links), expected.map(\.links))
        XCTAssertEqual(reliability.bands.map(\.correct), expected.map(\.correct))
        XCTAssertEqual(reliability.withoutTruth, links.count - expected.map(\.links).reduce(0, +))
        XCTAssertEqual(try Reliability(run, truth: try Reliability.readTruth(truthFile), truthFile: truthFile), reliability, "the same in memory")
        let page = try page(out)
        XCTAssertTrue(page.contains("aria-label=\"reliability curve\""))
        let top = expected[RunSummary.bands.count - 1]
        XCTAssertTrue(page.contains("<tr><th>[0.95,1.0]</th><td class=\"n\">\(top.links)</td><td class=\"n\">\(top.correct)</td>"), "the table")
        // A truth file without the columns: one line, the page left as it was.
        try "a,b\n1,2\n".write(toFile: truthFile, atomically: true, encoding: .utf8)
        let bad = try ProcessRunner.flyrLink(["report", out, "--truth", truthFile])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
        XCTAssertEqual(try self.page(out), page)
    }

    /// An output holding report.html is still flyr-link's own: a re-run replaces it (marker); one
    /// without the marker (flyr-link's file names only) only with --overwrite.
    func testAnOutputWithItsPageIsStillFlyrLinksOwn() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("out").path
        let args = ["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses, "--out", out, "--quiet"]
        XCTAssertEqual(try ProcessRunner.flyrLink(args).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(out)/report.html"))
        let again = try ProcessRunner.flyrLink(args + ["--no-html"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(out)/report.html"), "replaced as a whole")
        let legacy = dir.appendingPathComponent("legacy")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        for name in ["links.csv", "report.json", "report.html"] { try Data().write(to: legacy.appendingPathComponent(name)) }
        XCTAssertThrowsError(try OutputTarget.check(path: legacy.path, overwrite: false, inputs: []))
        XCTAssertNoThrow(try OutputTarget.check(path: legacy.path, overwrite: true, inputs: []))
        try Data().write(to: legacy.appendingPathComponent("notes.txt"))
        XCTAssertThrowsError(try OutputTarget.check(path: legacy.path, overwrite: true, inputs: []))
    }

    /// The spots as the page finds them (`WorstSpots.Cells`, `choose`, then `Counting`), from
    /// points in metres with their doubt weights.
    private func findSpots(positions: [Point2], weights: [Int32], unlinked: (Int) -> Bool, unsure: (Int) -> Bool,
                           cell: Double, count: Int) -> [WorstSpots.Spot] {
        var cells = WorstSpots.Cells(cell: cell)
        for (a, p) in positions.enumerated() { cells.add(p, weight: Int(weights[a])) }
        var counting = WorstSpots.Counting(spots: cells.choose(count: count), cell: cell)
        for (a, p) in positions.enumerated() { counting.add(p, weight: Int(weights[a]), unlinked: unlinked(a), unsure: unsure(a)) }
        return counting.spots
    }
}
