import Foundation
import XCTest
@testable import SyntheticCity

/// Helpers shared by the tests: temp dirs and small geometry checks written
/// independently of the generator's own code.
enum TestSupport {
    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("synthetic-city-tests-\(ProcessInfo.processInfo.processIdentifier)")
            .appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Even-odd ray casting; true strictly inside (points on an edge may go either way).
    static func contains(_ ring: [Point], _ p: Point) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y) {
                let xCross = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < xCross { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    static func distanceToSegment(_ p: Point, _ a: Point, _ b: Point) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared == 0 ? 0 : ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared
        t = max(0, min(1, t))
        let cx = a.x + t * dx - p.x, cy = a.y + t * dy - p.y
        return (cx * cx + cy * cy).squareRoot()
    }

    static func distanceToOutline(_ p: Point, _ ring: [Point]) -> Double {
        var best = Double.infinity
        for i in 0..<ring.count {
            best = min(best, distanceToSegment(p, ring[i], ring[(i + 1) % ring.count]))
        }
        return best
    }

    static func signedArea(_ ring: [Point]) -> Double {
        var sum = 0.0
        for i in 0..<ring.count {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// A generated city held as plain values (Sendable, so tests may cache it statically).
    struct InMemoryCity: Sendable {
        var buildings: [SyntheticBuilding]
        var addresses: [SyntheticAddress]
        var stats: CityStats
    }

    static func generateInMemory(buildings: Int, seed: UInt64) throws -> InMemoryCity {
        let sink = CollectingSink()
        let stats = try CityGenerator(config: CityConfig(buildings: buildings, seed: seed)).generate(into: sink)
        return InMemoryCity(buildings: sink.buildings, addresses: sink.addresses, stats: stats)
    }

    static func jsonObject(_ url: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return try XCTUnwrap(object as? [String: Any])
    }

    static func features(_ url: URL) throws -> [[String: Any]] {
        try XCTUnwrap(jsonObject(url)["features"] as? [[String: Any]])
    }
}
