import XCTest
import GeoParquet
@testable import FlyrLink
@testable import FlyrLinkDistributed

/// A plan made from shares of GeoParquet sources (`PlanShares`, docs/distributed.md): what it
/// says of the sources is a whole read's to the byte, and the tiles it cuts give one run's outputs.
extension DistributedRunTests {
    /// Every step of a plan from `shares` shares, in `directory`: the scans, the frame, the
    /// measures (when the frame is made); what the frame step printed.
    func planFromShares(_ sources: [String], shares: Int, in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for k in 0..<shares {
            let r = try ProcessRunner.flyrLink(["plan-share", "scan"] + sources + ["--share", "\(k)/\(shares)", "--shares", directory, "--threads", "1"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let frame = try ProcessRunner.flyrLink(["plan-share", "frame"] + sources + ["--count", "\(shares)", "--shares", directory])
        XCTAssertEqual(frame.status, 0, frame.stderr)
        let said = frame.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard said == "frame" else { return said }
        for k in 0..<shares {
            let r = try ProcessRunner.flyrLink(["plan-share", "measure"] + sources + ["--share", "\(k)/\(shares)", "--shares", directory])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        return said
    }

    /// city2k's addresses in groups of 300 rows, with a row without a point and one out of its
    /// CRS's range (two kinds of rejects, each found by the share that reads it); `extra`: more rows (id, x, y).
    static func addressesWithRejects(_ path: String, extra: [(String, Double, Double)] = []) throws {
        let file = try GeoParquetFile(path: TestPaths.fixture("city2k/addresses.zstd.parquet"))
        let names = ["id", "house_number", "street_name", "postal_code"]
        var columns = names.map { ParquetColumnBuffer(name: $0, kind: .text) }
        var geometry = ParquetColumnBuffer(name: "geometry", kind: .binary)
        func point(_ x: Double, _ y: Double) -> [UInt8] {
            var b: [UInt8] = [1, 1, 0, 0, 0]
            withUnsafeBytes(of: x.bitPattern.littleEndian) { b += $0 }
            withUnsafeBytes(of: y.bitPattern.littleEndian) { b += $0 }
            return b
        }
        _ = try file.read(columns: names) { batch in
            for row in 0..<batch.rowCount {
                for (c, name) in names.enumerated() {
                    if case .string(let v)? = batch.values[name], let text = v[row] { columns[c].append(text: text) } else { columns[c].appendNull() }
                }
                if let wkb = batch.geometryWKB[row] { geometry.append(bytes: wkb) } else { geometry.appendNull() }
            }
        }
        for (id, x, y) in [("no-point", Double.nan, Double.nan), ("far-out", 500, 500)] + extra {
            columns[0].append(text: id)
            for c in 1..<names.count { columns[c].appendNull() }
            if x.isNaN { geometry.appendNull() } else { geometry.append(bytes: point(x, y)) }
        }
        try GeoParquetWriter.write(path: path, columns: columns, geometry: geometry, rowGroupSize: 300)
    }

    func testAPlanFromSharesSaysWhatAWholeReadSaysAndItsTilesWriteOneRunsOutputs() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let addresses = dir.appendingPathComponent("addresses.parquet").path
        try Self.addressesWithRejects(addresses)
        let sources = ["--buildings", TestPaths.fixture("city2k/buildings.snappy.parquet"), "--addresses", addresses, "--parquet-reader", "flyr"]
        let decisions = try tiledRun(sources, tiles: 5, in: dir, shares: 3)
        try assertOneRunsOutputs(sources, decisions: decisions, in: dir)

        // The plan of a whole read: the same frame, report of the sources and rejects; the same
        // cut (every point is in the sample); halos as wide or wider (cells, not boxes).
        let whole = dir.appendingPathComponent("whole.json").path
        let r = try ProcessRunner.flyrLink(["plan"] + sources + ["--tiles", "5", "--out", whole])
        XCTAssertEqual(r.status, 0, r.stderr)
        let shared = try TilePlan.read(decisions + "/plan.json"), read = try TilePlan.read(whole)
        XCTAssertEqual(shared.frame, read.frame)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: try encoder.encode(shared.sources), as: UTF8.self), String(decoding: try encoder.encode(read.sources), as: UTF8.self))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: TilePlan.rejectsPath(plan: decisions + "/plan.json"))),
                       try Data(contentsOf: URL(fileURLWithPath: TilePlan.rejectsPath(plan: whole))))
        XCTAssertEqual(shared.sources.rejects, 2)
        XCTAssertEqual(shared.tiles.map(\.bounds), read.tiles.map(\.bounds))
        XCTAssertEqual(shared.tiles.map(\.addresses), read.tiles.map(\.addresses))
        for (s, w) in zip(shared.tiles, read.tiles) {
            XCTAssertGreaterThanOrEqual(s.linkHalo.buildings, w.linkHalo.buildings)
            XCTAssertEqual(s.measureHalo, w.measureHalo)
        }
        let report = try XCTUnwrap(shared.sources.inputs["addresses"]?.parquet)
        XCTAssertGreaterThan(report.rowGroupsTotal, 3)

        // With a territory (the west half of the city): the shares read only the row groups that
        // meet its box, and count what lies outside it as a whole read does.
        let city = read.tiles.reduce(BBox.empty) { var b = $0; b.extend($1.linkReadBox); return b }
        let middle = (city.minX + city.maxX) / 2
        let ring = [[city.minX, city.minY], [middle, city.minY], [middle, city.maxY], [city.minX, city.maxY], [city.minX, city.minY]]
        let territory = dir.appendingPathComponent("west.geojson")
        try JSONSerialization.data(withJSONObject: ["type": "Feature", "properties": [:] as [String: Any],
                                                    "geometry": ["type": "Polygon", "coordinates": [ring]]]).write(to: territory)
        let inWest = sources + ["--territory", territory.path]
        XCTAssertEqual(try planFromShares(inWest, shares: 3, in: dir.appendingPathComponent("west").path), "frame")
        for (name, extra) in [("west-shared.json", ["--shares", dir.appendingPathComponent("west").path]), ("west-whole.json", [])] {
            let r = try ProcessRunner.flyrLink(["plan"] + inWest + extra + ["--out", dir.appendingPathComponent(name).path])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let westShared = try TilePlan.read(dir.appendingPathComponent("west-shared.json").path)
        let westWhole = try TilePlan.read(dir.appendingPathComponent("west-whole.json").path)
        XCTAssertEqual(westShared.frame, westWhole.frame)
        XCTAssertEqual(String(decoding: try encoder.encode(westShared.sources), as: UTF8.self), String(decoding: try encoder.encode(westWhole.sources), as: UTF8.self))
        XCTAssertGreaterThan(westShared.sources.counts.outsideTerritory, 500)
        XCTAssertEqual(westShared.addresses, westWhole.addresses)

        // A source changed since its shares were read: refused, nothing written.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: addresses)
        let again = dir.appendingPathComponent("again.json").path
        let refused = try ProcessRunner.flyrLink(["plan"] + sources + ["--shares", dir.appendingPathComponent("shares").path, "--out", again])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("the sources have changed since share 0 was read"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: again))
    }

    /// What a share cannot decide makes the frame step say the plan must read the sources whole:
    /// an id in two rows (one run keeps the first).
    func testARepeatedIDMakesThePlanReadTheSourcesWhole() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let addresses = dir.appendingPathComponent("addresses.parquet").path
        let file = try GeoParquetFile(path: TestPaths.fixture("city2k/addresses.zstd.parquet"))
        var first = ""
        _ = try file.read(columns: ["id"], rowGroups: [0]) { batch in
            if first.isEmpty, case .string(let v)? = batch.values["id"] { first = v[0] ?? "" }
        }
        try Self.addressesWithRejects(addresses, extra: [(first, 24.95, 60.2)])
        let sources = ["--buildings", TestPaths.fixture("city2k/buildings.snappy.parquet"), "--addresses", addresses, "--parquet-reader", "flyr"]
        let said = try planFromShares(sources, shares: 3, in: dir.appendingPathComponent("shares").path)
        XCTAssertTrue(said.hasPrefix("whole: an id of the addresses is repeated"), said)
        let r = try ProcessRunner.flyrLink(["plan"] + sources + ["--shares", dir.appendingPathComponent("shares").path, "--out", dir.appendingPathComponent("plan.json").path])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("make it from the sources"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("plan.json").path))
    }

    /// A directory of GeoParquet parts (city2k's buildings in two files), in 3 shares whose runs of
    /// row groups cross from one file to the next: the plan says what a whole read says.
    func testAPlanFromSharesOfAPartitionedDataset() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", TestPaths.fixture("city2k-parts"), "--addresses", TestPaths.fixture("city2k/addresses.zstd.parquet"),
                       "--parquet-reader", "flyr"]
        XCTAssertEqual(try planFromShares(sources, shares: 3, in: dir.appendingPathComponent("shares").path), "frame")
        for (name, extra) in [("shared.json", ["--shares", dir.appendingPathComponent("shares").path]), ("whole.json", [])] {
            let r = try ProcessRunner.flyrLink(["plan"] + sources + extra + ["--tiles", "3", "--out", dir.appendingPathComponent(name).path])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let shared = try TilePlan.read(dir.appendingPathComponent("shared.json").path), whole = try TilePlan.read(dir.appendingPathComponent("whole.json").path)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(shared.frame, whole.frame)
        XCTAssertEqual(String(decoding: try encoder.encode(shared.sources), as: UTF8.self), String(decoding: try encoder.encode(whole.sources), as: UTF8.self))
        XCTAssertEqual(shared.sources.inputs["buildings"]?.parquet?.rowGroupsTotal, 4)
    }

    /// The cells' longest box near a tile is never shorter than the longest box that meets the
    /// tile's region (so a halo grown over the cells is never narrower), with a box across the
    /// whole territory kept whole rather than in thousands of cells, and a box no cell holds.
    func testTheCellsLongestBoxIsNeverShorterThanTheBoxesNear() {
        var generator = SystemRandomNumberGenerator()
        var boxes = (0..<3_000).map { _ -> BBox in
            let x = Double.random(in: -20_000...20_000, using: &generator), y = Double.random(in: -20_000...20_000, using: &generator)
            return BBox(minX: x, minY: y, maxX: x + Double.random(in: 1...120, using: &generator), maxY: y + Double.random(in: 1...80, using: &generator))
        }
        boxes.append(BBox(minX: -19_000, minY: 5_000, maxX: 19_000, maxY: 5_010))
        boxes.append(BBox(minX: 0, minY: 0, maxX: .infinity, maxY: 1))
        var cells = PlanShares.Cells()
        for b in boxes { cells.add(b) }
        XCTAssertEqual(cells.oversized.count, 2)
        XCTAssertLessThan(cells.longest.count, 20_000)
        var extent = BBox.empty
        for b in boxes where b.maxX.isFinite { extent.extend(b) }
        for _ in 0..<200 {
            let x = Double.random(in: -20_000...20_000, using: &generator), y = Double.random(in: -20_000...20_000, using: &generator)
            let bounds = TileBounds(minX: Bool.random(using: &generator) ? x : nil, minY: y, maxX: x + 2_000, maxY: Bool.random(using: &generator) ? y + 1_500 : nil)
            let reach = Double.random(in: 0...600, using: &generator)
            let exact = boxes.filter { bounds.meets($0, within: reach) }.map(\.diagonal).max() ?? 0
            XCTAssertGreaterThanOrEqual(cells.longest(near: bounds, within: reach, extent: extent), exact)
        }
    }

    /// Every row group of a dataset of several files is in exactly one share, the shares' groups
    /// in runs, and a share beyond the groups' count reads none.
    func testEveryRowGroupIsInOneShareOfConsecutiveGroups() {
        let files = [3, 1, 0, 7, 4]
        let total = files.reduce(0, +)
        for count in [1, 2, 4, 15, 40] {
            var seen: [Int] = []
            for k in 0..<count {
                var first = 0, mine: [Int] = []
                for groups in files {
                    mine += SourceShare(index: k, count: count).groups(first: first, count: groups, total: total).map { first + $0 }
                    first += groups
                }
                XCTAssertEqual(mine, mine.first.map { Array($0..<$0 + mine.count) } ?? [], "share \(k)/\(count): a run")
                seen += mine
            }
            XCTAssertEqual(seen, Array(0..<total), "\(count) shares")
        }
        XCTAssertEqual(SourceShare("3/4"), SourceShare(index: 3, count: 4))
        XCTAssertNil(SourceShare("4/4"))
        XCTAssertNil(SourceShare("1/0"))
    }

    /// Repeats across shares are found a bucket at a time, and the order statistics of sorted
    /// sections are those of their merge.
    func testSharesRepeatsAndOrderStatistics() {
        var generator = SystemRandomNumberGenerator()
        let values = (0..<3).map { _ in (0..<500).map { _ in Double.random(in: 0.5...90, using: &generator) }.sorted() }
        let merged = values.flatMap { $0 }.sorted()
        let words = values.map { $0.map(\.bitPattern) }
        words.withSections { sections in
            for k in [0, 1, 149, 750, 1499] { XCTAssertEqual(PlanShares.kthSmallest(k, of: sections), merged[k]) }
        }
        // Pairs spread over every bucket; one pair in two shares, then none.
        let pairs = (0..<3).map { _ in (0..<2_000).map { _ in (UInt64.random(in: .min ... .max, using: &generator), UInt64.random(in: .min ... .max, using: &generator)) } }
        var twice = pairs
        twice[2][1_000] = pairs[0][1_500]
        for (shares, repeated) in [(pairs, false), (twice, true)] {
            shares.map(PlanShares.sortedPairs).withSections { XCTAssertEqual(PlanShares.repeats($0), repeated) }
        }
        // The same first word, another second: no repeat.
        var close = pairs
        close[1][7] = (pairs[0][3].0, pairs[0][3].1 &+ 1)
        close.map(PlanShares.sortedPairs).withSections { XCTAssertFalse(PlanShares.repeats($0)) }
    }
}

extension Array where Element == [UInt64] {
    /// The arrays as buffers, for the span of `body`.
    fileprivate func withSections(_ body: ([UnsafeBufferPointer<UInt64>]) -> Void) {
        func nest(_ i: Int, _ done: [UnsafeBufferPointer<UInt64>]) {
            guard i < count else { return body(done) }
            self[i].withUnsafeBufferPointer { nest(i + 1, done + [$0]) }
        }
        nest(0, [])
    }
}
