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
}
