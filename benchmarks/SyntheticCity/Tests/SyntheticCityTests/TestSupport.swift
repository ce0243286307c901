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

    static func generateInMemory(buildings: Int, seed: UInt64, profile: CityProfile = .standard) throws -> InMemoryCity {
        let sink = CollectingSink()
        let stats = try CityGenerator(config: CityConfig(buildings: buildings, seed: seed, profile: profile)).generate(into: sink)
        return InMemoryCity(buildings: sink.buildings, addresses: sink.addresses, stats: stats)
    }

    /// Pairs of buildings whose footprints overlap (a proper edge crossing or one
    /// containing a vertex or the centroid of the other); bounding boxes prefilter.
    static func overlappingPairs(_ buildings: [SyntheticBuilding]) -> [(String, String)] {
        struct Box { var minX, minY, maxX, maxY: Double; var i: Int }
        let boxes = buildings.enumerated().map { i, b in
            Box(minX: b.ring.map(\.x).min()!, minY: b.ring.map(\.y).min()!,
                maxX: b.ring.map(\.x).max()!, maxY: b.ring.map(\.y).max()!, i: i)
        }.sorted { $0.minX < $1.minX }
        func orient(_ a: Point, _ b: Point, _ c: Point) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
        func crosses(_ p: Point, _ q: Point, _ r: Point, _ s: Point) -> Bool {
            let d1 = orient(p, q, r), d2 = orient(p, q, s), d3 = orient(r, s, p), d4 = orient(r, s, q)
            return ((d1 > 1e-9 && d2 < -1e-9) || (d1 < -1e-9 && d2 > 1e-9)) && ((d3 > 1e-9 && d4 < -1e-9) || (d3 < -1e-9 && d4 > 1e-9))
        }
        func centroid(_ r: [Point]) -> Point { Point(r.map(\.x).reduce(0, +) / Double(r.count), r.map(\.y).reduce(0, +) / Double(r.count)) }
        func overlap(_ a: [Point], _ b: [Point]) -> Bool {
            for i in 0..<a.count {
                for j in 0..<b.count where crosses(a[i], a[(i + 1) % a.count], b[j], b[(j + 1) % b.count]) { return true }
            }
            return a.contains { contains(b, $0) } || b.contains { contains(a, $0) }
                || contains(b, centroid(a)) || contains(a, centroid(b))
        }
        var pairs: [(String, String)] = []
        for (k, a) in boxes.enumerated() {
            for b in boxes[(k + 1)...] {
                if b.minX > a.maxX { break }
                guard b.minY <= a.maxY, a.minY <= b.maxY else { continue }
                if overlap(buildings[a.i].ring, buildings[b.i].ring) { pairs.append((buildings[a.i].id, buildings[b.i].id)) }
            }
        }
        return pairs
    }

    /// Addresses whose point lies inside a building other than their true one.
    static func pointsInsideOtherBuildings(_ city: InMemoryCity) -> [String] {
        let cell = 50.0
        var grid: [Int: [Int]] = [:]
        func key(_ cx: Int, _ cy: Int) -> Int { cx &* 1_000_003 &+ cy }
        for (i, b) in city.buildings.enumerated() {
            let xs = b.ring.map(\.x), ys = b.ring.map(\.y)
            for cx in Int((xs.min()! / cell).rounded(.down))...Int((xs.max()! / cell).rounded(.down)) {
                for cy in Int((ys.min()! / cell).rounded(.down))...Int((ys.max()! / cell).rounded(.down)) {
                    grid[key(cx, cy), default: []].append(i)
                }
            }
        }
        var bad: [String] = []
        for a in city.addresses {
            let k = key(Int((a.point.x / cell).rounded(.down)), Int((a.point.y / cell).rounded(.down)))
            for i in grid[k] ?? [] where city.buildings[i].index != a.truth.buildingIndex {
                if contains(city.buildings[i].ring, a.point) { bad.append("\(a.id) inside \(city.buildings[i].id)") }
            }
        }
        return bad
    }

    static func jsonObject(_ url: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return try XCTUnwrap(object as? [String: Any])
    }

    static func features(_ url: URL) throws -> [[String: Any]] {
        try XCTUnwrap(jsonObject(url)["features"] as? [[String: Any]])
    }
}

extension TestSupport.InMemoryCity {
    /// The address's true building (indices are 1-based, in order).
    func building(of a: SyntheticAddress) throws -> SyntheticBuilding {
        let b = buildings[try XCTUnwrap(a.truth.buildingIndex, a.id) - 1]
        XCTAssertEqual(b.index, a.truth.buildingIndex)
        return b
    }

    /// The addresses of a truth kind, by their building's index.
    func addressesByBuilding(_ kind: AddressTruthKind) -> [Int: [SyntheticAddress]] {
        Dictionary(grouping: addresses.filter { $0.truth.kind == kind }) { $0.truth.buildingIndex! }
    }

    /// A truth kind that names a building kind is its building's kind; the others are vacant lots.
    func assertTruthKindsMatchBuildingKinds() throws {
        for a in addresses {
            if let kind = a.truth.kind.buildingKind {
                XCTAssertEqual(try building(of: a).kind, kind, a.id)
            } else {
                XCTAssertNil(a.truth.buildingIndex, a.id)
                XCTAssertEqual(a.truth.placement, .lot, a.id)
            }
        }
    }
}
