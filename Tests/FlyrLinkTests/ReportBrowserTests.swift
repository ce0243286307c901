import XCTest
@testable import FlyrLink

/// The Helsinki demo's report.html in a real browser: headless Chromium from Debian (installed by
/// scripts/install-deps.sh) opens the file offline, the screenshot's pixels show the maps drawn,
/// the page's own script ran, and the console stayed silent (no error, nothing fetched).
final class ReportBrowserTests: XCTestCase {
    static let chromium = "/usr/bin/chromium"

    /// Chromium with a throwaway profile, no network (every host name resolves to nothing), killed
    /// after two minutes should it hang.
    private func chromium(_ arguments: [String], profile: URL) throws -> ProcessResult {
        try ProcessRunner.run("/usr/bin/timeout", ["120", Self.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                   "--no-first-run", "--user-data-dir=\(profile.path)", "--host-resolver-rules=MAP * ~NOTFOUND",
                                                   "--enable-logging=stderr", "--v=0"] + arguments)
    }

    func testHelsinkiReportRendersInChromium() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
            XCTFail("\(Self.chromium) missing: apt-get install chromium (scripts/install-deps.sh installs it)")
            return
        }
        let dir = TestPaths.temporaryDirectory(self)
        let out = dir.appendingPathComponent("helsinki").path
        let run = try ProcessRunner.flyrLink(["run", TestPaths.root.appendingPathComponent("pipelines/helsinki.toml").path, "--out", out, "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let page = "\(out)/report.html"
        XCTAssertTrue(run.stdout.contains("report: \(page)"), "the demo prints the page's path:\n\(run.stdout)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let drawings = html.components(separatedBy: "<svg ").count - 1
        XCTAssertEqual(drawings, 2 + ReportSettings.spotCount, "overview, histogram and the spots")

        // The page's script ran (it counts the drawings into the DOM), and nothing went to the console.
        let dom = try chromium(["--dump-dom", URL(fileURLWithPath: page).absoluteString], profile: dir.appendingPathComponent("profile-dom"))
        XCTAssertEqual(dom.status, 0, dom.stderr)
        XCTAssertTrue(dom.stdout.contains("data-rendered=\"\(drawings)\""), String(dom.stdout.prefix(400)))
        XCTAssertTrue(dom.stdout.contains("page script ran: \(drawings) drawings"))
        let console = dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        XCTAssertEqual(console, [], "console messages")

        // A screenshot down to the first spots: the map colours are there, in quantity.
        let png = dir.appendingPathComponent("report.png").path
        let shot = try chromium(["--screenshot=\(png)", "--window-size=1280,3600", URL(fileURLWithPath: page).absoluteString],
                                profile: dir.appendingPathComponent("profile-shot"))
        XCTAssertEqual(shot.status, 0, shot.stderr)
        XCTAssertEqual(shot.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }, [])
        let pixels = try PNGPixels(contentsOf: png)
        XCTAssertEqual(pixels.width, 1280)
        XCTAssertEqual(pixels.height, 3600)
        let counts = pixels.histogram()
        func count(_ hex: String) -> Int { counts[Int(hex.dropFirst(), radix: 16)!] ?? 0 }
        // Overview cells: pale green (no doubt), grey (buildings only), the doubtful reds.
        XCTAssertGreaterThan(count(ColorScale.shareSteps[0]), 20_000, "overview cells without doubt")
        XCTAssertGreaterThan(count(ColorScale.buildingsOnly), 5_000, "overview cells of buildings only")
        XCTAssertGreaterThan(ColorScale.shareSteps[3...].map(count).reduce(0, +), 2_000, "doubtful overview cells")
        // Spot maps: footprints filled; the histogram's tallest bar.
        XCTAssertGreaterThan(count(ColorScale.footprintFill), 20_000, "footprints on the spot maps")
        XCTAssertGreaterThan(count(ColorScale.confidence(0.99)), 5_000, "histogram bars")
        // Not a blank page: most pixels are not white, and many colours are used.
        XCTAssertGreaterThan(counts.count, 200)
        XCTAssertLessThan(Double(counts[0xFFFFFF] ?? 0) / Double(pixels.width * pixels.height), 0.8)
    }
}
