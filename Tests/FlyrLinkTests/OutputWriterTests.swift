import XCTest
@testable import FlyrLink

/// The writers under the output files: every byte in order, whatever the block boundaries,
/// the thread count or the order of the units.
final class OutputWriterTests: XCTestCase {
    func testByteWriterWritesEveryByteInOrderDirectOrBuffered() throws {
        let dir = TestPaths.temporaryDirectory(self)
        var generator = SystemRandomNumberGenerator()
        // Empty, one byte, one staging block exactly, and pieces of every size across several blocks.
        let block = 8192
        let cases: [[Int]] = [[], [1], [block], [4096, block - 4096], [3, block, 17, 5000, block + 999, 1, 3 * block + 4095]]
        for (n, sizes) in cases.enumerated() {
            for direct in [true, false] {
                let path = dir.appendingPathComponent("bytes-\(n)-\(direct)").path
                let out = try ByteWriter(path: path, direct: direct, blockSize: block)
                var expected: [UInt8] = []
                for (k, size) in sizes.enumerated() {
                    let piece = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    expected += piece
                    switch k % 3 {
                    case 0: out.write(bytes: piece)
                    case 1: out.withBuffer { $0 += piece }
                    default: piece.withUnsafeBytes { out.write(bytes: $0) }
                    }
                }
                out.write("ä\n")
                expected += Array("ä\n".utf8)
                try out.close()
                let written = try Data(contentsOf: URL(fileURLWithPath: path))
                XCTAssertEqual(written.count, expected.count, "sizes \(sizes), direct \(direct)")
                XCTAssertTrue(written.elementsEqual(expected), "sizes \(sizes), direct \(direct)")
            }
        }
    }

    /// Address fields written from where they are packed give the bytes their strings give:
    /// `addressText`'s fallbacks, empty and missing values, text that needs escaping.
    func testPackedAddressFieldsWriteAsTheirStrings() {
        let cases: [[String?]] = [
            ["12", "Main \"Street\"", nil, "12 Main St, \\Town", nil, nil, nil],
            ["12", "Main Street", nil, "", nil, nil, nil],
            [nil, "Main Street"], ["7b"], ["", "Rue\tde la Paix"], [], [nil, nil, nil, nil, nil, nil, "00100"],
        ]
        for values in cases {
            let a = AddressPoint(id: "a\n1", values: values, sourceRow: 1)
            var packed = FeatureProperties(), strings = FeatureProperties()
            packed.addressText("address_text", a); packed.field("house_number", a, .houseNumber); packed.field("street_name", a, .streetName)
            packed.field("id", a, .id)
            strings.text("address_text", a.addressText); strings.text("house_number", a.houseNumber); strings.text("street_name", a.streetName)
            strings.text("id", a.id)
            XCTAssertEqual(String(decoding: packed.bytes, as: UTF8.self), String(decoding: strings.bytes, as: UTF8.self), "\(values)")
        }
    }

    func testParallelRowsWritesEachOutputInRowOrderForAnyThreadCount() {
        // Rows of uneven length, some absent from an output, across many chunks.
        func row(_ i: Int, _ k: Int) -> [UInt8] {
            (i * (k + 1)) % 7 == 3 ? [] : Array("\(k):\(i)\(String(repeating: "x", count: i % 13));".utf8)
        }
        let count = 10_000
        let expected = (0..<3).map { k in (0..<count).flatMap { row($0, k) } }
        for threads in 1...3 {
            for chunkSize in [1, 7, 2048, 20_000] {
                var got: [[UInt8]] = [[], [], []]
                ParallelRows.write(count, outputs: 3, chunkSize: chunkSize, pool: WorkerPool(threads: threads),
                                   sink: { k, bytes in got[k] += bytes }) { i, rows in
                    for k in 0..<3 { rows.outputs[k] += row(i, k) }
                }
                XCTAssertEqual(got, expected, "threads \(threads), chunk size \(chunkSize)")
            }
        }
    }

    func testUnitsOutOfBuildingOrderAreWrittenInTheirOwnOrder() throws {
        let base = TestPaths.temporaryDirectory(self)
        var options = RunOptions(buildings: SourceSpec(location: TestPaths.rowsBuildings),
                                 addresses: SourceSpec(location: TestPaths.rowsAddresses),
                                 output: base.appendingPathComponent("made").path)
        options.campaignID = "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"
        let run = try LinkPipeline(options: options).run()
        XCTAssertGreaterThan(run.units.count, 4)
        try RunWriter.write(run)
        // The same run with its units listed in reverse (links pointing at them renumbered).
        var reversed = run
        reversed.units.reverse()
        let last = run.units.count - 1
        for l in reversed.links.indices { reversed.links[l].unitIndex = reversed.links[l].unitIndex.map { last - $0 } }
        reversed.options.output = base.appendingPathComponent("reversed").path
        try RunWriter.write(reversed)

        func ids(_ dir: String, _ file: String) throws -> [String] {
            try OutputFiles.geojson(base.appendingPathComponent(dir).appendingPathComponent(file).path)
                .map { OutputFiles.properties($0)["id"] as! String }
        }
        XCTAssertEqual(try ids("reversed", "units.geojson"), try ids("made", "units.geojson").reversed())
        XCTAssertEqual(try ids("reversed", "buildings.geojson"), try ids("made", "buildings.geojson"))
        XCTAssertEqual(try Set(ids("reversed", "features.geojson")), try Set(ids("made", "features.geojson")))
    }
}
