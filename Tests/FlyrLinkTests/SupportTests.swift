import XCTest
import SyntheticCity
@testable import FlyrLink

final class SupportTests: XCTestCase {
    func testUUIDv5MatchesRFCExample() {
        // Python: uuid.uuid5(uuid.NAMESPACE_DNS, "www.example.com")
        let dns = UUIDv5.parse("6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        XCTAssertEqual(UUIDv5.make(name: "www.example.com", namespace: dns), "2ed6657d-e927-568b-95e1-2665a8aea6a2")
        XCTAssertTrue(UUIDv5.isValid("2ed6657d-e927-568b-95e1-2665a8aea6a2"))
        XCTAssertFalse(UUIDv5.isValid("not-a-uuid"))
        XCTAssertFalse(UUIDv5.isValid("2ed6657d-e927-568b-95e1-2665a8aea6a"))
    }

    func testUUIDv5AppendedInPlaceEqualsTheMadeString() {
        // Empty, ASCII, multi-digit lengths, non-ASCII, a bridged-looking substring copy.
        let parts = ["", "link", "b0000001", String(repeating: "x", count: 123), "Ærøskøbing Gade 7",
                     "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b", String("abc,def\"ghi".dropFirst(2))]
        for a in parts { UUIDv5.withPrefix(["link", a]) { prefix in
            for b in parts { for c in parts.prefix(3) {
                var out: [UInt8] = Array("x,".utf8)
                var (b, c) = (b, c)
                b.withUTF8 { b in c.withUTF8 { c in UUIDv5.append(prefix, utf8: b, c, to: &out) } }
                XCTAssertEqual(String(decoding: out, as: UTF8.self), "x," + UUIDv5.make(parts: ["link", a, b, c]))
            } }
        } }
    }

    func testUUIDBytesGiveBackTheTextTheyWereMadeFrom() {
        let parts = ["", "unit", "b0000001", "Ærøskøbing Gade 7", String(repeating: "x", count: 123)]
        for a in parts { for b in parts {
            let id = UUIDv5.makeBytes(parts: ["unit", a, b])
            XCTAssertEqual(id.text, UUIDv5.make(parts: ["unit", a, b]))
            XCTAssertEqual(UUIDBytes(text: id.text), id)
            var out: [UInt8] = Array("u,".utf8)
            id.appendText(to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), "u," + id.text)
        } }
        // Every bit of both halves in its place (high and low bits set, in and out of order).
        for text in ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "0123abcd-89ef-4567-89ab-cdef01234567"] {
            XCTAssertEqual(UUIDBytes(text: text)?.text, text)
        }
        XCTAssertEqual(UUIDBytes(text: "0123ABCD-89EF-4567-89AB-CDEF01234567")?.text, "0123abcd-89ef-4567-89ab-cdef01234567")
        XCTAssertNil(UUIDBytes(text: "not-a-uuid"))
        let unit = UnitSlice(id: "0123abcd-89ef-4567-89ab-cdef01234567", buildingIndex: 7, addressIndex: 1_500_000_000, unitIndex: 2, footprint: .empty)
        XCTAssertEqual(unit.id, "0123abcd-89ef-4567-89ab-cdef01234567")
        XCTAssertEqual([unit.buildingIndex, unit.addressIndex, unit.unitIndex], [7, 1_500_000_000, 2])
    }

    func testHugePageAdviceKeepsTheArrayAndGetsHugePagesWhereTheKernelOffersThem() throws {
        var rows: [Int64] = []
        rows.reserveCapacity(3 << 20)  // 24 MB: several whole 2 MB pages inside
        HugePages.advise(&rows)
        for i in 0..<(3 << 20) { rows.append(Int64(i) * 7) }
        XCTAssertEqual(rows.count, 3 << 20)
        XCTAssertTrue(rows.indices.allSatisfy { rows[$0] == Int64($0) * 7 })
        // Where THP is offered on advice (this machine: "[madvise]"), the array's mapping has some.
        let setting = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        guard setting.contains("[madvise]") || setting.contains("[always]") else { return }
        // (An address well inside: the advice splits the mapping at the first whole 2 MB page.)
        let base = rows.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) } + UInt(4 << 20)
        // (Read to its end block by block: procfs files have no size for Foundation to go by.)
        var smapsBytes: [UInt8] = []
        try FileBlocks.forEach("/proc/self/smaps") { smapsBytes += $0 }
        let smaps = String(decoding: smapsBytes, as: UTF8.self)
        var inside = false, hugeKB = -1
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count > 1, !range.hasSuffix(":") {
                let ends = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = ends.count == 2 && ends[0] <= base && base < ends[1]
            } else if inside, fields.first == "AnonHugePages:", fields.count > 1 {
                hugeKB = Int(fields[1]) ?? -1
            }
        }
        XCTAssertGreaterThan(hugeKB, 0, "the advised part of the array's mapping has huge pages")
    }

    func testSHA256KnownVectors() {
        XCTAssertEqual(SHA256.hash(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hash([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        XCTAssertEqual(SHA256.hash(long), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testFileBlocksAndFileHashCoverEveryByteOnce() throws {
        let dir = TestPaths.temporaryDirectory(self)
        var generator = SeededGenerator(seed: 7)
        // Sizes around the block sizes used below and the 1 MiB default: empty, one byte, exact multiples, one past.
        for size in [0, 1, 4095, 4096, 4097, (1 << 20) + 3, 5 << 19] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let path = dir.appendingPathComponent("f\(size)").path
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            XCTAssertEqual(SHA256.hashFile(path), SHA256.hash(bytes), "\(size) bytes")
            for blockSize in [1, 4096, 1 << 20] where blockSize > 1 || size < 5000 {
                var read: [UInt8] = [], blocks = 0, emptyAtEnd = false
                try FileBlocks.forEach(path, blockSize: blockSize) { block in
                    XCTAssertFalse(emptyAtEnd, "nothing after the empty block")
                    XCTAssertLessThanOrEqual(block.count, blockSize)
                    read += block
                    blocks += 1
                    emptyAtEnd = block.isEmpty
                }
                XCTAssertEqual(read, bytes, "\(size) bytes in blocks of \(blockSize)")
                XCTAssertTrue(emptyAtEnd)
                XCTAssertGreaterThanOrEqual(blocks, (size + blockSize - 1) / blockSize + 1)
            }
        }
        XCTAssertNil(SHA256.hashFile(dir.appendingPathComponent("missing").path))
        XCTAssertThrowsError(try FileBlocks.forEach(dir.appendingPathComponent("missing").path) { _ in }) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot read "), "\(error)")
        }
    }

    func testOutputNumberIsFixedAndTrimmed() {
        XCTAssertEqual(OutputNumber.fixed(0.5, 3), "0.5")
        XCTAssertEqual(OutputNumber.fixed(12, 2), "12")
        XCTAssertEqual(OutputNumber.fixed(0.05, 2), "0.05")
        XCTAssertEqual(OutputNumber.fixed(-0.0000001, 3), "0")
        XCTAssertEqual(OutputNumber.fixed(-24.94145661, 7), "-24.9414566")
        XCTAssertEqual(OutputNumber.fixed(60.1713198, 7), "60.1713198")
        XCTAssertEqual(OutputNumber.fixed(1.0, 3), "1")
        XCTAssertEqual(OutputNumber.fixed(100.25, 1), "100.3")
    }

    func testHouseNumbersCompareAsPeopleReadThem() {
        XCTAssertTrue(HouseNumber.less("2", "10"))
        XCTAssertTrue(HouseNumber.less("10", "10A"))
        XCTAssertTrue(HouseNumber.less("10a", "10B"))
        XCTAssertFalse(HouseNumber.less("11", "10B"))
        XCTAssertTrue(HouseNumber.less("5", nil))
        XCTAssertEqual(HouseNumber.key(street: "Main  Street", number: "10 A"), HouseNumber.key(street: "main street", number: "10a"))
        XCTAssertNil(HouseNumber.key(street: "Main Street", number: nil))
        // The ASCII fast paths and the general (Foundation) path give the same forms.
        XCTAssertEqual(HouseNumber.key(street: "  Main   Street ", number: "12 A"), "main street|12a")
        XCTAssertEqual(HouseNumber.key(street: "  Ågade   Nord ", number: "12 Å"), "ågade nord|12å")
        XCTAssertEqual(HouseNumber.parts("12 B ")?.suffix, "b")
        XCTAssertEqual(HouseNumber.parts("12 Bé")?.suffix, "bé")
        XCTAssertEqual(HouseNumber.parts("1234567890")?.number, 123456789)
        XCTAssertTrue(HouseNumber.less("12b", "12 Bé"))
    }

    func testOSMTagsParseHstoreWithEscapes() {
        let tags = OSMTags.parse(#""addr:street"=>"Kaivokatu","name"=>"Say \"hi\"","addr:housenumber"=>"1""#)
        XCTAssertEqual(tags["addr:street"], "Kaivokatu")
        XCTAssertEqual(tags["name"], "Say \"hi\"")
        XCTAssertEqual(tags["addr:housenumber"], "1")
        XCTAssertEqual(OSMTags.parse("").count, 0)
        XCTAssertEqual(OSMTags.parse(#""broken"=>"#).count, 0)
    }

    func testBoxGridAgreesWithBruteForce() {
        var rng = SeededGenerator(seed: 11)
        // Small boxes, points (zero-size boxes), and a few spanning many cells or the whole area.
        var boxes: [BBox] = (0..<5000).map { _ in
            let x = rng.unit() * 1000 - 300, y = rng.unit() * 1000 + 200
            return BBox(minX: x, minY: y, maxX: x + rng.unit() * 20, maxY: y + rng.unit() * 20)
        }
        boxes += (0..<50).map { _ in
            let x = rng.unit() * 1000 - 300, y = rng.unit() * 1000 + 200
            return BBox(minX: x, minY: y, maxX: x, maxY: y)
        }
        boxes += [BBox(minX: -300, minY: 200, maxX: 700, maxY: 1200), BBox(minX: 0, minY: 500, maxX: 600, maxY: 510), .empty]
        for cellSize in [3.0, 17.0, 40.0, 250.0, 5000.0] {
            let grid = BoxGrid(boxes: boxes, cellSize: cellSize, pool: WorkerPool(threads: 2))
            for k in 0..<300 {
                let x = rng.unit() * 1200 - 400, y = rng.unit() * 1200 + 100
                let side = k % 3 == 0 ? 0 : rng.unit() * 90
                let q = BBox(minX: x, minY: y, maxX: x + side, maxY: y + side)
                // Each item once, with a box enclosing its own, nearly exactly; every item whose box
                // meets the query, and besides them only items whose boxes nearly do.
                var visited: [Int] = []
                grid.search(q) { item, box in
                    XCTAssertTrue(box.minX <= boxes[item].minX && box.minY <= boxes[item].minY
                                  && box.maxX >= boxes[item].maxX && box.maxY >= boxes[item].maxY, "\(box) encloses \(boxes[item])")
                    let own = boxes[item]
                    XCTAssertLessThanOrEqual(max(own.minX - box.minX, own.minY - box.minY, box.maxX - own.maxX, box.maxY - own.maxY), 1e-4)
                    visited.append(item)
                }
                XCTAssertEqual(visited.count, Set(visited).count, "each item once")
                XCTAssertEqual(visited.filter { boxes[$0].intersects(q) }.sorted(), boxes.indices.filter { boxes[$0].intersects(q) },
                               "cell \(cellSize), query \(q)")
                XCTAssertTrue(visited.allSatisfy { boxes[$0].expanded(by: 1e-4).intersects(q) }, "the others nearly meet the query")
            }
            // Queries beyond the data, around it, and with no extent.
            XCTAssertEqual(grid.search(BBox(minX: 5000, minY: 5000, maxX: 6000, maxY: 6000)), [])
            XCTAssertEqual(grid.search(BBox(minX: -1e9, minY: -1e9, maxX: 1e9, maxY: 1e9)), Array(0..<(boxes.count - 1)))
            XCTAssertEqual(grid.search(.empty), [])
        }
        XCTAssertEqual(BoxGrid(boxes: [], cellSize: 10).search(BBox(minX: 0, minY: 0, maxX: 1, maxY: 1)), [])
    }

    func testParallelSortGivesTheSortedArrayForAnyThreadCount() {
        var rng = SeededGenerator(seed: 11)
        // Many repeats (values from a small range) and odd lengths, above the parallel threshold.
        for n in [ParallelSort.minimumParallelCount, 200_003] {
            let values = (0..<n).map { _ in Int(rng.unit() * 5000) }
            let expected = values.sorted()
            for threads in [1, 2, 3] {
                var v = values
                ParallelSort.sort(&v, pool: WorkerPool(threads: threads))
                XCTAssertEqual(v, expected, "\(n) values on \(threads) threads")
            }
        }
    }

    func testIndexGroupsHoldEveryKeyedIndexOnceAscendingInItsGroup() {
        var rng = SeededGenerator(seed: 12)
        for (count, keyCount) in [(0, 0), (0, 3), (1, 1), (5, 1), (1_000, 7), (20_000, 5_000)] {
            // Some indices in no group (nil), some groups empty.
            let keys: [Int?] = (0..<count).map { _ in rng.unit() < 0.2 || keyCount == 0 ? nil : Int(rng.unit() * Double(keyCount)) }
            let groups = IndexGroups(count: count, keyCount: keyCount) { keys[$0] }
            XCTAssertEqual(groups.groupCount, keyCount)
            var expected = [[Int]](repeating: [], count: keyCount)
            for (i, k) in keys.enumerated() { if let k { expected[k].append(i) } }
            for g in 0..<keyCount {
                XCTAssertEqual(groups[g].map(Int.init), expected[g], "group \(g) of \(keyCount), \(count) indices")
                XCTAssertEqual(groups.size(of: g), expected[g].count)
            }
        }
    }

    func testParallelCompactMapKeepsIndexOrderForAnyThreadCountAndChunkSize() {
        var rng = SeededGenerator(seed: 13)
        let values = (0..<100_003).map { _ in Int(rng.unit() * 1000) }
        let expected = values.indices.filter { values[$0] % 3 == 0 }.map { $0 * 2 + values[$0] }
        for threads in [1, 2, 3] {
            for chunkSize in [1, 7, 4096, 65_536, 200_000] where threads < 3 || chunkSize > 1 {
                let got = WorkerPool(threads: threads).compactMap(values.count, chunkSize: chunkSize,
                                                                  where: { values[$0] % 3 == 0 }) { $0 * 2 + values[$0] }
                XCTAssertEqual(got, expected, "\(threads) threads, chunks of \(chunkSize)")
            }
        }
        XCTAssertEqual(WorkerPool(threads: 2).compactMap(0, where: { _ in true }) { $0 }, [])
        XCTAssertEqual(WorkerPool(threads: 2).compactMap(1000, where: { _ in false }) { $0 }, [])
    }

    func testALargeBoxGridBuiltOnWorkersAgreesWithBruteForce() {
        var rng = SeededGenerator(seed: 8)
        // Whole-number corners on 10-unit cells: many boxes and queries end exactly on a cell edge.
        let boxes: [BBox] = (0..<150_000).map { _ in
            let x = (rng.unit() * 2000).rounded(), y = (rng.unit() * 2000).rounded()
            return BBox(minX: x, minY: y, maxX: x + (rng.unit() * 10).rounded(), maxY: y + rng.unit() * 10)
        }
        let grid = BoxGrid(boxes: boxes, cellSize: 10, pool: WorkerPool(threads: 3))
        for k in 0..<100 {
            let x = rng.unit() * 2000, y = rng.unit() * 2000
            let q = k % 2 == 0 ? BBox(minX: x, minY: y, maxX: x + 30, maxY: y + 30)
                : BBox(minX: x.rounded(), minY: y.rounded(), maxX: x.rounded() + 20, maxY: y.rounded() + 20)
            let found = grid.search(q)
            XCTAssertEqual(found.filter { boxes[$0].intersects(q) }, boxes.indices.filter { boxes[$0].intersects(q) })
            XCTAssertTrue(found.allSatisfy { boxes[$0].expanded(by: 1e-4).intersects(q) })
        }
    }

    func testSourceSpecSplitsLayerOnlyWhenThePathExists() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let file = dir.appendingPathComponent("x.gpkg").path
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        XCTAssertEqual(SourceSpec.parse("\(file):roads"), SourceSpec(location: file, layer: "roads"))
        XCTAssertEqual(SourceSpec.parse(file), SourceSpec(location: file))
        XCTAssertEqual(SourceSpec.parse("PG:dbname=x host=localhost"), SourceSpec(location: "PG:dbname=x host=localhost"))
        XCTAssertEqual(SourceSpec.parse("\(file):roads", layer: "other").layer, "other")
    }
}
