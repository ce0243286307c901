import Foundation
import XCTest
@testable import SyntheticCity

final class FormattingTests: XCTestCase {
    private func written(_ body: (BufferedFileWriter) throws -> Void) throws -> String {
        let url = try TestSupport.temporaryDirectory("format").appendingPathComponent("out.txt")
        let writer = try BufferedFileWriter(path: url.path)
        try body(writer)
        try writer.close()
        return try String(contentsOf: url, encoding: .utf8)
    }

    func testFixedDecimals() throws {
        let text = try written { w in
            for (value, decimals) in [(10.2, 8), (56.123456789, 8), (-0.000000004, 8), (-3.25, 2), (7, 1), (0.05, 1), (12345.678, 0)] {
                try w.fixed(value, decimals: decimals)
                try w.byte(UInt8(ascii: " "))
            }
        }
        XCTAssertEqual(text, "10.20000000 56.12345679 0.00000000 -3.25 7.0 0.1 12346 ")
    }

    func testIdsIntegersAndJSONStrings() throws {
        let text = try written { w in
            try w.identifier(prefix: UInt8(ascii: "b"), 42)
            try w.byte(UInt8(ascii: " "))
            try w.identifier(prefix: UInt8(ascii: "a"), 12_345_678)
            try w.byte(UInt8(ascii: " "))
            try w.integer(-907)
            try w.byte(UInt8(ascii: " "))
            try w.jsonString("Say \"hi\"\\\n")
        }
        XCTAssertEqual(text, "b0000042 a12345678 -907 \"Say \\\"hi\\\"\\\\\\u000a\"")
    }

    func testLargeOutputSpansManyFlushes() throws {
        let text = try written { w in
            for i in 0..<300_000 { try w.integer(i % 10) }
        }
        XCTAssertEqual(text.count, 300_000)
        XCTAssertTrue(text.hasPrefix("0123456789"))
    }
}
