import Foundation
import XCTest
@testable import GeoParquet

enum Corpus {
    /// The shared GeoParquet corpus: $FLYR_SHARED_DATA/geoparquet, or found by walking up from this file
    /// to a directory containing shared/data/geoparquet.
    static func directory(file: StaticString = #filePath) throws -> URL {
        if let env = ProcessInfo.processInfo.environment["FLYR_SHARED_DATA"] {
            let u = URL(fileURLWithPath: env).appendingPathComponent("geoparquet")
            if FileManager.default.fileExists(atPath: u.path) { return u }
            XCTFail("FLYR_SHARED_DATA=\(env) has no geoparquet folder")
        }
        var dir = URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("shared/data/geoparquet")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw XCTSkipFailure.missing
    }

    enum XCTSkipFailure: Error { case missing }

    static func path(_ name: String) throws -> String {
        let p = try directory().appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: p) else {
            XCTFail("corpus file \(name) is missing")
            throw XCTSkipFailure.missing
        }
        return p
    }

    static func allParquetFiles() throws -> [String] {
        let dir = try directory()
        return try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".parquet") }.sorted()
            .map { dir.appendingPathComponent($0).path }
    }

    static func fixture(_ name: String, file: StaticString = #filePath) -> String {
        URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
    }
}

/// Reads all geometries of a file (primary column unless named).
func readGeometries(_ path: String, column: String? = nil) throws -> [[UInt8]?] {
    let f = try GeoParquetFile(path: path)
    var out: [[UInt8]?] = []
    try f.read(columns: [], geometryColumn: column) { out.append(contentsOf: $0.geometryWKB) }
    return out
}

/// Splits WKT into tokens: words, numbers, parentheses (commas dropped).
func wktTokens(_ s: String) -> [String] {
    var tokens: [String] = []
    var cur = ""
    for ch in s {
        if ch == "(" || ch == ")" {
            if !cur.isEmpty { tokens.append(cur); cur = "" }
            tokens.append(String(ch))
        } else if ch == " " || ch == "," {
            if !cur.isEmpty { tokens.append(cur); cur = "" }
        } else {
            cur.append(ch)
        }
    }
    if !cur.isEmpty { tokens.append(cur) }
    return tokens
}

/// Compares two WKT strings token by token, numbers numerically.
func assertWKTEqual(_ a: String, _ b: String, tolerance: Double = 1e-9, _ message: String = "",
                    file: StaticString = #filePath, line: UInt = #line) {
    let ta = wktTokens(a), tb = wktTokens(b)
    guard ta.count == tb.count else {
        XCTFail("WKT differs: \(a) vs \(b) \(message)", file: file, line: line)
        return
    }
    for (x, y) in zip(ta, tb) {
        if let dx = Double(x), let dy = Double(y) {
            if abs(dx - dy) > tolerance { XCTFail("WKT differs at \(x) vs \(y): \(a) vs \(b) \(message)", file: file, line: line); return }
        } else if x.uppercased() != y.uppercased() {
            XCTFail("WKT differs at \(x) vs \(y): \(a) vs \(b) \(message)", file: file, line: line)
            return
        }
    }
}

/// Parses the corpus CSVs: `"col","geometry"` then `n,"WKT"` or `n,` (null).
func readWKTCSV(_ path: String) throws -> [String?] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var out: [String?] = []
    for line in text.split(separator: "\n").dropFirst() {
        guard let comma = line.firstIndex(of: ",") else { continue }
        let rest = line[line.index(after: comma)...].trimmingCharacters(in: .whitespacesAndNewlines)
        out.append(rest.isEmpty ? nil : String(rest.dropFirst().dropLast()))
    }
    return out
}

/// Runs `body` and asserts that it throws a GeoParquetError (anything else fails the test).
func assertThrowsGeoParquetError(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                                 _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected a GeoParquetError for \(what)", file: file, line: line)
    } catch let e as GeoParquetError {
        XCTAssertFalse(e.description.contains("\n"), "error message must be one line: \(e)", file: file, line: line)
    } catch {
        XCTFail("expected GeoParquetError for \(what), got \(error)", file: file, line: line)
    }
}
