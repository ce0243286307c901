import XCTest
@testable import FlyrLink

/// The run's rows are stored compactly (packed address fields, 32-bit indices, sentinel nils):
/// what goes in must come out unchanged.
final class CompactModelTests: XCTestCase {
    func testPackedAddressFieldsGiveBackEveryValue() {
        let long = String(repeating: "Å", count: 200)  // 400 UTF-8 bytes: a two-byte length
        let cases: [[String?]] = [
            [nil, nil, nil, nil, nil, nil, nil],
            ["12", "Main Street", nil, nil, nil, "1000", "Aarby"],
            ["", "x", "", nil, long, nil, "Σ\u{0}|\u{1F}"],
            [nil, nil, nil, nil, nil, nil, "last"],
            ["1"],
        ]
        for values in cases {
            let a = AddressPoint(id: "a1", values: values, sourceRow: 3)
            let expected = (0..<7).map { $0 < values.count ? values[$0] : nil }
            XCTAssertEqual(a.values, expected)
            for (k, field) in AddressField.allCases.dropFirst().enumerated() {
                XCTAssertEqual(a[field], expected[k], "\(field)")
                XCTAssertEqual(field.position, k + 1, "\(field): its place in the record, after the id")
            }
            XCTAssertEqual(a[.id], "a1")
            XCTAssertEqual(a.id, "a1")
            XCTAssertEqual(AddressField.id.position, 0)
            var seen: [Int: String?] = [:]
            a.forEachFieldUTF8 { k, bytes in seen.updateValue(bytes.map { String(decoding: $0, as: UTF8.self) }, forKey: k) }
            XCTAssertEqual(seen.count, 8)
            XCTAssertEqual(seen[0], "a1")
            for k in 1..<8 { XCTAssertEqual(seen[k], expected[k - 1], "field \(k) read in place") }
        }
        // An id longer than a string holds inline, renamed (as a generated id is set) with its
        // values kept; an empty id is none, read as empty text.
        var renamed = AddressPoint(id: "", values: ["7", "Long Road"], sourceRow: 2)
        XCTAssertEqual(renamed.id, "")
        renamed.withUTF8(.id) { XCTAssertEqual($0?.count, 0, "no id reads as empty bytes, not as none") }
        renamed.id = "08b2a100d2cb3fff0200e4e1c8e8e4a5"
        XCTAssertEqual(renamed.id, "08b2a100d2cb3fff0200e4e1c8e8e4a5")
        XCTAssertEqual(renamed.houseNumber, "7")
        XCTAssertEqual(renamed.streetName, "Long Road")
        XCTAssertEqual(AddressPoint(id: "", values: [], sourceRow: 1),
                       AddressPoint(packed: PackedFields(nil, at: nil), sourceRow: 1))
        var a = AddressPoint(id: "a", values: ["1", "A Street"], sourceRow: 1)
        let b = AddressPoint(id: "a", values: ["1", "A Street", nil, nil], sourceRow: 1)
        XCTAssertEqual(a, b, "trailing nils are no values")
        XCTAssertEqual(a.hashValue, b.hashValue)
        a.values = ["2", nil, "B"]
        XCTAssertEqual(a.houseNumber, "2")
        XCTAssertNil(a.streetName)
        XCTAssertEqual(a[.unit], "B")
        XCTAssertEqual(a.addressText, "2")
    }

    func testAddressesOfABatchShareOneSlabAndKeepTheirOwnValues() {
        var builder = PackedFields.Builder()
        let batch: [[String?]] = [["12", "Main Street", nil, nil, nil, "1000", "Aarby"], [], [nil, nil], ["", String(repeating: "x", count: 300)], ["1"]]
        for round in 0..<2 {  // the builder's buffer is reused for the next batch
            let starts = batch.map { builder.append($0) }
            XCTAssertNil(starts[1], "a row without values has no record")
            XCTAssertNil(starts[2], "nor one of nils only")
            _ = builder.finish()
            let records = batch.map { ["a\(round)"] + $0 }.map { builder.append($0) }  // as the intake packs them: the id first
            let slab = builder.finish()
            for (values, start) in zip(batch, records) {
                let shared = AddressPoint(packed: PackedFields(slab, at: start), sourceRow: 1)
                let own = AddressPoint(id: "a\(round)", values: values, sourceRow: 1)
                XCTAssertEqual(shared.values, (0..<7).map { $0 < values.count ? values[$0] : nil })
                XCTAssertEqual(shared, own, "equal by value, wherever the bytes are kept")
                XCTAssertEqual(shared.hashValue, own.hashValue)
            }
        }
        XCTAssertEqual(MemoryLayout<AddressPoint>.stride, 16, "the id packed with the other fields, the point kept apart")
        var a = AddressPoint(id: "a", values: [], sourceRow: Int(Int32.max))
        XCTAssertEqual(a.sourceRow, Int(Int32.max))
        a.sourceRow = 5
        XCTAssertEqual(a.sourceRow, 5)
    }

    func testVerdictsAndHouseKeysKeepWhatTheyWereGiven() {
        for (k, reason) in UnlinkedReason.allCases.enumerated() {
            XCTAssertEqual(ProximityMatcher.Verdict(confidence: 0.3, unlinked: reason).unlinked, reason)
            XCTAssertEqual(reason.ordinal, k)
            XCTAssertEqual(UnlinkedReason(ordinal: k), reason)
            XCTAssertEqual(UnlinkedReasons([UnlinkedReasons.code(reason)])[0], reason.rawValue)
        }
        XCTAssertEqual(Array(UnlinkedReasons([UnlinkedReasons.linked, UnlinkedReasons.code(nil)])), [nil, "unlinked"])
        for c in [0.0, 0.5, 0.731, 1.0] {
            let v = ProximityMatcher.Verdict(confidence: c, unlinked: nil)
            XCTAssertNil(v.unlinked)
            XCTAssertEqual(v.confidence, c)
        }
        XCTAssertEqual(MemoryLayout<ProximityMatcher.Verdict>.stride, 8)
        XCTAssertEqual(MemoryLayout<ProximityMatcher.Proposal?>.stride, 40, "an optional proposal no larger than one")
        let exact = ProximityMatcher.Proposal(building: 3, method: .exact, distance: 0, nearestPoint: Point2(x: 5, y: 5),
                                              alternativeDistance: nil, coveringCount: 2)
        XCTAssertEqual(exact.coveringCount, 2)
        XCTAssertEqual(exact.nearestPoint, Point2(x: 0, y: 0), "an exact proposal's address is on its building")
        let near = ProximityMatcher.Proposal(building: 4, method: .proximity, distance: 1.5, nearestPoint: Point2(x: 5, y: 6),
                                             alternativeDistance: 9, coveringCount: 0)
        XCTAssertEqual(near.nearestPoint, Point2(x: 5, y: 6))
        XCTAssertEqual(near.coveringCount, 0)
        XCTAssertEqual(near.alternativeDistance, 9)
        let key = HouseNumber.houseKey(street: "Main Street", number: "1")!
        let keys: HouseKeys = [nil, key, HouseKey(first: 0, second: 1)]
        XCTAssertEqual(Array(keys), [nil, key, HouseKey(first: 0, second: 1)])
        XCTAssertNotEqual(HouseKey.Hasher().finish(), HouseKey.none, "no text hashes to the stored nil")
    }

    func testBuildingWithoutHeightOrLevelsEqualsItself() {
        let b = Building(id: "b", height: nil, levels: nil, sourceRow: 7)
        XCTAssertNil(b.height)
        XCTAssertNil(b.levels)
        XCTAssertEqual(b, b)
        XCTAssertEqual(Set([b, b]).count, 1)
        var c = b
        c.height = 12.5
        c.levels = 4
        XCTAssertEqual(c.height, 12.5)
        XCTAssertEqual(c.levels, 4)
        XCTAssertNotEqual(b, c)
        c.levels = Int(Int32.max) + 1
        XCTAssertNil(c.levels, "a levels count beyond 32 bits is none")
        XCTAssertEqual(c.sourceRow, 7)
        XCTAssertEqual(MemoryLayout<Footprint>.stride, 16, "points and one array of ring and polygon ends")
        XCTAssertEqual(MemoryLayout<Building>.stride, 32, "the footprint kept apart, in a store")
    }

    func testBuildingIdsArePackedAndReadBackAsWritten() {
        let gers = "08b1f0b4c8d2bfff0200c9c7c0b0a1a2"
        var b = Building(id: gers, height: 9, levels: nil, sourceRow: 3)
        XCTAssertEqual(b.id, gers)
        b.withIDUTF8 { XCTAssertEqual(Array($0), Array(gers.utf8)) }
        XCTAssertEqual(b, Building(id: gers, height: 9, levels: nil, sourceRow: 3))
        XCTAssertNotEqual(b, Building(id: "08b1f0b4c8d2bfff", height: 9, levels: nil, sourceRow: 3))
        // As the intake packs a batch: one slab for every id, a row without an id has no record.
        var ids = PackedFields.Builder()
        let records = [ids.append(["b1"]), ids.append([nil]), ids.append(["Ærø/7"])]
        let slab = ids.finish()
        let rows = records.map { Building(packedID: PackedFields(slab, at: $0), height: nil, levels: 2, sourceRow: 1) }
        XCTAssertEqual(rows.map(\.id), ["b1", "", "Ærø/7"])
        rows[1].withIDUTF8 { XCTAssertEqual($0.count, 0) }
        XCTAssertEqual(rows[1], Building(id: "", height: nil, levels: 2, sourceRow: 1))
        b.id = "made-later"
        XCTAssertEqual(b.id, "made-later")
        XCTAssertEqual(b.height, 9, "renaming keeps the other fields")
        XCTAssertEqual(IDOrder.key(utf8: UnsafeBufferPointer(start: nil, count: 0)).0, 0)
        var g = gers
        XCTAssertTrue(g.withUTF8 { IDOrder.key(utf8: $0) } == IDOrder.key(gers))
    }

    func testLinkKeepsIndicesAndUnit() {
        var l = Link(addressIndex: 1_500_000_000, buildingIndex: 42, method: .proximity, confidence: 0.75, distance: 3.25)
        XCTAssertEqual(MemoryLayout<Link>.stride, 32)
        XCTAssertEqual(l.addressIndex, 1_500_000_000)
        XCTAssertEqual(l.buildingIndex, 42)
        XCTAssertNil(l.unitIndex)
        l.unitIndex = 0
        XCTAssertEqual(l.unitIndex, 0)
        l.unitIndex = nil
        XCTAssertNil(l.unitIndex)
        XCTAssertEqual(l.method, .proximity)
    }

    func testHouseKeysAreEqualExactlyForEqualKeys() {
        let rows: [(String?, String?)] = [("Main  Street", "10 A"), ("main street", "10a"), ("Main Street", "10"), ("Main Street", nil),
                                          ("Ågade", "1"), ("ågade", "1"), (nil, "1")]
        let addresses = rows.enumerated().map { k, r in
            AddressPoint(id: "a\(k)", values: [r.1, r.0], sourceRow: k + 1)
        }
        let numbers = HouseNumber.keys(addresses, pool: WorkerPool(threads: 2))
        for i in rows.indices {
            for j in rows.indices {
                let same = HouseNumber.key(street: rows[i].0, number: rows[i].1) == HouseNumber.key(street: rows[j].0, number: rows[j].1)
                XCTAssertEqual(numbers[i] == numbers[j], same, "\(rows[i]) \(rows[j])")
            }
        }
        XCTAssertNil(numbers[3])
        // Many distinct keys: no two agree (a collision here would be a broken hash).
        var seen: [HouseKey: String] = [:]
        for street in ["Main Street", "Main Streets", "Birch Street", "Ågade"] {
            for n in 0..<20_000 {
                let text = HouseNumber.key(street: street, number: "\(n)")!
                let k = HouseNumber.houseKey(street: street, number: "\(n)")!
                XCTAssertEqual(seen.updateValue(text, forKey: k) ?? text, text)
            }
        }
        XCTAssertEqual(seen.count, 80_000)
    }

    func testKeptOrderPutsCompressedRowsInIDOrderAndRejectsRepeats() {
        var g = SystemRandomNumberGenerator()
        let pool = WorkerPool(threads: 2)
        // Short ids; long ones sharing their first 16 bytes (settled past the integer key); ids
        // that differ only in padding-like bytes or beyond ASCII.
        let shapes: [(Int) -> String] = [
            { "id\($0)" },
            { "building/0000000000\($0 % 3)/\($0)" },
            { $0 % 2 == 0 ? "ab\u{0}\($0 % 5)" : "ab\($0 % 5)" },
            { "é\($0 % 7)ß\(String(repeating: "x", count: $0 % 20))" },
        ]
        for shape in shapes { for n in [0, 1, 2, 7, 100, 2_000, 70_000] {
            let rows = (0..<n).map { k in (id: shape(Int.random(in: 0..<max(1, n / 2), using: &g)), row: k + 1) }
            // Reference: stable sort by id bytes, the first of each id kept.
            let sorted = rows.sorted { IDOrder.precedes($0.id, $1.id) || (!IDOrder.precedes($1.id, $0.id) && $0.row < $1.row) }
            var expected: [(id: String, row: Int)] = []
            for r in sorted where expected.last?.id != r.id { expected.append(r) }
            let items = rows.map { AddressPoint(id: $0.id, values: ["\($0.row)"], sourceRow: $0.row) }
            var keys = items.indices.map { IDOrder.keyed(items[$0], index: $0) }
            let compressed = CompressedRows(compressing: items, pool: pool)
            var rejects: [Reject] = []
            let order = IDOrder.keptOrder(&keys, compressed: compressed, layer: "addresses", rejects: &rejects, pool: pool)
            compressed.arrange(order)
            let back = compressed.decompressed(pool: pool)
            XCTAssertEqual(back.map(\.id), expected.map(\.id))
            XCTAssertEqual(back.map(\.sourceRow), expected.map(\.row))
            XCTAssertEqual(back.map(\.houseNumber), expected.map { "\($0.row)" }, "each row whole")
            XCTAssertEqual(rejects.count, n - expected.count)
            XCTAssertTrue(keys.isEmpty, "the keys are consumed")
        } }
    }
}
