import Foundation
import XCTest
@testable import FlyrLink

/// The PostgreSQL/PostGIS server the tests write to: $FLYR_TEST_PG (scripts/test.sh starts a
/// throwaway one with scripts/pg-test-server.sh). A test that finds none fails; it never skips.
enum TestDatabase {
    static func conninfo(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        guard let c = ProcessInfo.processInfo.environment["FLYR_TEST_PG"], !c.isEmpty else {
            XCTFail("FLYR_TEST_PG is not set: run scripts/test.sh, or start scripts/pg-test-server.sh and export its conninfo",
                    file: file, line: line)
            throw CocoaError(.featureUnsupported)
        }
        return c
    }

    /// `base` with extra libpq keywords (`options`, `user`, `dbname`), in URI or key=value form.
    static func with(_ base: String, _ params: [(String, String)]) -> String {
        if base.hasPrefix("postgresql://") || base.hasPrefix("postgres://") {
            var s = base
            for (k, v) in params {
                if k == "dbname", let slash = s.range(of: "/", options: .backwards, range: s.range(of: "://")!.upperBound..<s.endIndex) {
                    let end = s[slash.upperBound...].firstIndex(of: "?") ?? s.endIndex
                    s.replaceSubrange(slash.upperBound..<end, with: v)
                    continue
                }
                let encoded = v.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? v
                s += (s.contains("?") ? "&" : "?") + "\(k)=\(encoded)"
            }
            return s
        }
        return base + params.map { " \($0.0)='\($0.1)'" }.joined()
    }

    /// A new empty schema, first in search_path (PostGIS stays reachable in public); dropped
    /// with everything in it when the test ends. Returns the schema's conninfo and its name.
    static func isolatedSchema(_ test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws -> (conninfo: String, schema: String) {
        let base = try conninfo(file: file, line: line)
        let schema = "flyr_t_" + UUID().uuidString.prefix(8).lowercased()
        let admin = try PGConnection(base)
        try admin.execute("CREATE SCHEMA \(schema)")
        test.addTeardownBlock {
            if let db = try? PGConnection(base) { _ = try? db.execute("DROP SCHEMA \(schema) CASCADE") }
        }
        return (with(base, [("options", "-csearch_path=\(schema),public")]), schema)
    }

    /// Rows of a query on `conninfo`.
    @discardableResult
    static func query(_ conninfo: String, _ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        try PGConnection(conninfo).execute(sql, parameters)
    }
}

/// Two full-features collections compared as parsed JSON: same features in the same order, same
/// top-level id, same property keys and values (numbers numerically), same geometry type and
/// coordinates within 1e-7 degrees.
enum FeatureComparison {
    static func assertSame(_ actual: [[String: Any]], _ expected: [[String: Any]], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.count, expected.count, "feature count", file: file, line: line)
        var reported = 0
        for (i, (a, e)) in zip(actual, expected).enumerated() {
            var problems: [String] = []
            if (a["id"] as? String) != (e["id"] as? String) { problems.append("id \(a["id"] ?? "nil") ≠ \(e["id"] ?? "nil")") }
            let pa = a["properties"] as? [String: Any] ?? [:], pe = e["properties"] as? [String: Any] ?? [:]
            if Set(pa.keys) != Set(pe.keys) { problems.append("property keys \(pa.keys.sorted()) ≠ \(pe.keys.sorted())") }
            for (k, v) in pe where pa[k] != nil && !sameValue(pa[k]!, v) {
                problems.append("\(k): \(pa[k]!) ≠ \(v)")
            }
            let ga = a["geometry"] as? [String: Any] ?? [:], ge = e["geometry"] as? [String: Any] ?? [:]
            if (ga["type"] as? String) != (ge["type"] as? String) { problems.append("geometry type \(ga["type"] ?? "nil") ≠ \(ge["type"] ?? "nil")") }
            if !sameCoordinates(ga["coordinates"] as Any, ge["coordinates"] as Any) { problems.append("coordinates differ") }
            if !problems.isEmpty {
                reported += 1
                if reported <= 5 { XCTFail("feature \(i): \(problems.joined(separator: "; "))", file: file, line: line) }
            }
        }
        XCTAssertEqual(reported, 0, "features that differ", file: file, line: line)
    }

    static func sameValue(_ a: Any, _ b: Any) -> Bool {
        if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
        if let x = a as? String, let y = b as? String { return x == y }
        if let x = a as? NSNumber, let y = b as? NSNumber { return x.doubleValue == y.doubleValue }
        return false
    }

    static func sameCoordinates(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? NSNumber, let y = b as? NSNumber { return abs(x.doubleValue - y.doubleValue) <= 1e-7 + 1e-12 }
        guard let xs = a as? [Any], let ys = b as? [Any], xs.count == ys.count else { return false }
        return zip(xs, ys).allSatisfy { sameCoordinates($0, $1) }
    }
}
