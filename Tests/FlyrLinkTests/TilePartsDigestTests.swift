import Foundation
import XCTest
@testable import FlyrLink
@testable import FlyrLinkDistributed

/// A tile's parts carry the SHA-256 of each of their files (SHA256SUMS), which the merge checks
/// before it reads a byte: a part changed by one bit fails the merge with one line naming the
/// tile and the file, and the previous output stays as it was.
extension DistributedRunTests {
    /// SHA256SUMS made again from the files of the tile's parts as they are now (as a tile that
    /// wrote them so would have): the checks behind the digests can then be tested.
    static func rewriteDigests(_ parts: String, only: RunOptions.OutputSelection = .all) throws {
        var digests: [String: String] = [:]
        for name in TilePartsDigests.files(only: only) {
            digests[name] = SHA256.hash([UInt8](try Data(contentsOf: URL(fileURLWithPath: parts + "/" + name))))
        }
        try Data(TilePartsDigests.text(digests)).write(to: URL(fileURLWithPath: parts + "/" + TilePartsDigests.fileName))
    }

    func testAPartWithOneFlippedBitFailsTheMergeAndLeavesThePreviousOutput() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses]
        // Every kind of part file: a full run's, and a links-only run's (its house numbers).
        for (name, only) in [("all", [String]()), ("links", ["--only", "links"])] {
            let decisions = try tiledRun(sources + only, tiles: 2, in: dir.appendingPathComponent(name))
            let out = dir.appendingPathComponent(name + "/out")
            let first = try ProcessRunner.flyrLink(["run"] + sources + only + ["--out", out.path, "--parts", decisions])
            XCTAssertEqual(first.status, 0, first.stderr)
            let before = try OutputFiles.everyFile(out)
            let besideOut = try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path).sorted()
            let parts = decisions + "/" + TileParts.directoryName(tile: 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: parts).sorted()
            XCTAssertEqual(Set(files), TilePartsDigests.files(only: only.isEmpty ? .all : .links).union([TilePartsDigests.fileName]))
            for file in files {
                let path = parts + "/" + file
                let whole = try Data(contentsOf: URL(fileURLWithPath: path))
                // A bit of the first, a middle and the last byte (an empty part: a byte added).
                let changes: [Data] = whole.isEmpty ? [Data([0x0A])] : Set([0, whole.count / 2, whole.count - 1]).sorted().map { at in
                    var changed = whole
                    changed[at] ^= 1 << UInt8(at % 8)
                    return changed
                }
                for changed in changes {
                    try changed.write(to: URL(fileURLWithPath: path))
                    let r = try ProcessRunner.flyrLink(["run"] + sources + only + ["--out", out.path, "--parts", decisions])
                    XCTAssertNotEqual(r.status, 0, "\(name): \(file)")
                    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
                    XCTAssertTrue(r.stderr.hasPrefix("flyr-link: error: parts: tile 1: \(parts)/"), r.stderr)
                    XCTAssertTrue(r.stderr.contains("make the tile's parts again (flyr-link tile outputs --plan \(decisions)/plan.json --tile 1)"), r.stderr)
                    if file != TilePartsDigests.fileName {
                        XCTAssertTrue(r.stderr.contains("\(path) is not the file its tile wrote (its SHA-256 differs from SHA256SUMS)"), r.stderr)
                    }
                    XCTAssertEqual(try OutputFiles.everyFile(out), before, "\(name): \(file)")
                    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path).sorted(), besideOut)
                }
                try whole.write(to: URL(fileURLWithPath: path))
            }
            // Parts without digests (an older flyr-link's), and a file the list does not name.
            let sums = parts + "/" + TilePartsDigests.fileName
            try FileManager.default.moveItem(atPath: sums, toPath: sums + ".away")
            var r = try ProcessRunner.flyrLink(["run"] + sources + only + ["--out", out.path, "--parts", decisions])
            XCTAssertNotEqual(r.status, 0)
            XCTAssertTrue(r.stderr.contains("parts: tile 1: \(sums) is missing (parts written by an older flyr-link, or not whole)"), r.stderr)
            try FileManager.default.moveItem(atPath: sums + ".away", toPath: sums)
            let counts = try String(contentsOfFile: sums, encoding: .utf8).split(separator: "\n").filter { $0.hasSuffix("  counts.json") }
            try (String(contentsOfFile: sums, encoding: .utf8) + counts[0].replacingOccurrences(of: "counts.json", with: "extra.part") + "\n")
                .write(toFile: sums, atomically: false, encoding: .utf8)
            r = try ProcessRunner.flyrLink(["run"] + sources + only + ["--out", out.path, "--parts", decisions])
            XCTAssertNotEqual(r.status, 0)
            XCTAssertTrue(r.stderr.contains("\(sums) is not a list of the SHA-256 of the tile's"), r.stderr)
            XCTAssertEqual(try OutputFiles.everyFile(out), before)
            // The tile's parts made again replace those that are not whole, and the merge succeeds.
            r = try ProcessRunner.flyrLink(["tile", "outputs", "--plan", decisions + "/plan.json", "--tile", "1"])
            XCTAssertEqual(r.status, 0, r.stderr)
            r = try ProcessRunner.flyrLink(["run"] + sources + only + ["--out", out.path, "--parts", decisions])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try DistributedRunTests.withoutTimings("report.json", Data(contentsOf: out.appendingPathComponent("report.json"))),
                           try DistributedRunTests.withoutTimings("report.json", before["report.json"]!))
            XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("links.csv")), before["links.csv"])
        }
    }

    func testTilePartsSHA256SUMSIsReadOnlyAsWritten() {
        let digests = ["a.part": String(repeating: "0", count: 64), "counts.json": String(repeating: "f", count: 64)]
        let text = TilePartsDigests.text(digests)
        XCTAssertEqual(String(decoding: text, as: UTF8.self), "\(digests["a.part"]!)  a.part\n\(digests["counts.json"]!)  counts.json\n")
        XCTAssertEqual(TilePartsDigests.parse(text), digests)
        XCTAssertNil(TilePartsDigests.parse(Array(text.dropLast())))  // cut short
        XCTAssertNil(TilePartsDigests.parse(Array(String(decoding: text, as: UTF8.self).uppercased().utf8)))
        XCTAssertNil(TilePartsDigests.parse(text + text))  // a name twice
    }
}
