import Foundation
import XCTest
@testable import FlyrLink

/// `flyr-link report DIR` checks what it reads: a file of the output missing, cut short, short of
/// rows or features, or garbage is one line naming it, a non-zero exit, and report.html (and
/// every other file) left as it was.
final class ReportInputChecksTests: XCTestCase {
    /// How a file is damaged, and what the error then says of it.
    enum Damage: CaseIterable {
        case deleted, cutInHalf, lastRowDropped, garbage
    }

    func damage(_ path: String, _ how: Damage) throws {
        let url = URL(fileURLWithPath: path)
        let bytes = try Data(contentsOf: url)
        switch how {
        case .deleted: try FileManager.default.removeItem(at: url)
        case .cutInHalf: try bytes.prefix(bytes.count / 2).write(to: url)
        case .lastRowDropped:
            // A whole row (CSV) or a whole feature's line (GeoJSON, one a line): the file still parses.
            var lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
            if path.hasSuffix(".csv") {
                lines.remove(at: lines.count - 2)
            } else {
                lines.remove(at: lines.count - 3)  // (the last feature; then "]}" and the empty end)
                lines[lines.count - 3] = String(lines[lines.count - 3].dropLast())  // its separator, now last
            }
            try Data(lines.joined(separator: "\n").utf8).write(to: url)
        case .garbage: try Data("\u{1}garbage \"not\nflyr-link's,\n".utf8).write(to: url)
        }
    }

    func expected(_ file: String, _ how: Damage, rows: Int) -> String {
        let csv = file.hasSuffix(".csv")
        switch how {
        case .deleted: return "\(file) is missing: "
        case .cutInHalf: return csv ? "\(file) is cut short (its last line has no line break): " : "\(file) is not valid JSON ("
        case .lastRowDropped: return csv ? "\(file) holds \(rows - 1) rows, report.json counts \(rows): " : "\(file) holds \(rows - 1) features, report.json counts \(rows): "
        case .garbage: return csv ? "\(file) does not begin with flyr-link's header (" : "\(file) is not valid JSON ("
        }
    }

    func testEachFileTheReportReadsMissingCutShortOrGarbageIsOneLineAndThePageStays() throws {
        let dir = TestPaths.temporaryDirectory(self)
        // Helsinki has rejects; la-venice has townhouse rows (units.geojson has features to lose).
        let helsinki = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        let venice = ["--buildings", TestPaths.rowsBuildings, "--addresses", TestPaths.rowsAddresses]
        let outputs = [("all", helsinki, ["links.csv", "rejects.csv", "addresses.geojson"]), ("links", helsinki + ["--only", "links"], ["links.csv", "rejects.csv"]),
                       ("rows", venice, ["units.geojson"])]
        for (kind, arguments, names) in outputs {
            let out = dir.appendingPathComponent(kind)
            let r = try ProcessRunner.flyrLink(["run"] + arguments + ["--out", out.path, "--quiet"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let report = try RunWriter.reportDecoder().decode(RunReport.self, from: Data(contentsOf: out.appendingPathComponent("report.json")))
            let c = report.counts
            let redrawn = try ProcessRunner.flyrLink(["report", out.path])
            XCTAssertEqual(redrawn.status, 0, "the output as written is drawn: \(redrawn.stderr)")
            let rows = ["links.csv": c.linked, "rejects.csv": c.rejected + c.buildingsRejected, "units.geojson": c.units, "addresses.geojson": c.addresses]
            let files = names.map { ($0, rows[$0]!) }
            XCTAssertTrue(files.allSatisfy { $0.1 > 1 }, "\(files)")
            for (file, rows) in files {
                for how in Damage.allCases {
                    let copy = dir.appendingPathComponent("damaged-\(kind)")
                    try? FileManager.default.removeItem(at: copy)
                    try FileManager.default.copyItem(at: out, to: copy)
                    try damage(copy.appendingPathComponent(file).path, how)
                    let before = try OutputFiles.everyFile(copy)
                    let r = try ProcessRunner.flyrLink(["report", copy.path])
                    XCTAssertNotEqual(r.status, 0, "\(kind) \(file) \(how)")
                    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
                    XCTAssertTrue(r.stderr.hasPrefix("flyr-link: error: \(copy.path)/" + expected(file, how, rows: rows)), "\(kind) \(how): \(r.stderr)")
                    XCTAssertTrue(r.stderr.hasSuffix("the output is not as flyr-link wrote it; write it again with flyr-link run\n"), r.stderr)
                    XCTAssertEqual(try OutputFiles.everyFile(copy), before, "\(kind) \(file) \(how): report.html and the rest untouched")
                }
            }
        }
    }

    /// The layers a whole run's directory holds are read, whatever else is there: buildings.geojson
    /// missing is not a links-only page.
    func testAWholeRunsLayersMissingIsNotALinksOnlyPage() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out")
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", out.path, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for file in ["buildings.geojson", "addresses.geojson"] {
            let path = out.appendingPathComponent(file).path
            try FileManager.default.moveItem(atPath: path, toPath: path + ".away")
            let before = try OutputFiles.everyFile(out)
            let missing = try ProcessRunner.flyrLink(["report", out.path])
            XCTAssertNotEqual(missing.status, 0)
            XCTAssertEqual(missing.stderr, "flyr-link: error: \(path) is missing: the output is not as flyr-link wrote it; write it again with flyr-link run\n")
            XCTAssertEqual(try OutputFiles.everyFile(out), before)
            try FileManager.default.moveItem(atPath: path + ".away", toPath: path)
        }
        // Anything after the collection's end.
        let addresses = out.appendingPathComponent("addresses.geojson")
        let handle = try FileHandle(forWritingTo: addresses)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{}\n".utf8))
        try handle.close()
        let trailing = try ProcessRunner.flyrLink(["report", out.path])
        XCTAssertNotEqual(trailing.status, 0)
        XCTAssertTrue(trailing.stderr.contains("\(addresses.path) is not valid JSON (") && trailing.stderr.contains("more after the collection's end"), trailing.stderr)
    }
}
