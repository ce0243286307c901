import XCTest
@testable import FlyrLink

/// RFC 7946 §3.1.6 in every GeoJSON output: exterior rings counterclockwise, holes clockwise,
/// checked ring by ring on the binary's outputs of the Helsinki demo and of `la_dev` (whose
/// LARIAC outlines are all clockwise in the source, and whose townhouse slices came out clockwise).
final class RingOrientationTests: XCTestCase {
    /// Every ring of every polygon geometry in the GeoJSON files of `dir`, by orientation.
    private struct RingCensus {
        var shells = 0, holes = 0
        var wrong: [String] = []
    }

    private func census(_ dir: String) throws -> RingCensus {
        var c = RingCensus()
        for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() where name.hasSuffix(".geojson") {
            for (i, f) in try OutputFiles.geojson(dir + "/" + name).enumerated() {
                let g = f["geometry"] as? [String: Any] ?? [:]
                let polygons: [[[[Double]]]]
                switch g["type"] as? String {
                case "Polygon": polygons = [g["coordinates"] as! [[[Double]]]]
                case "MultiPolygon": polygons = g["coordinates"] as! [[[[Double]]]]
                default: continue
                }
                for polygon in polygons {
                    for (r, ring) in polygon.enumerated() {
                        let area = Self.twiceSignedArea(ring)
                        if r == 0 { c.shells += 1 } else { c.holes += 1 }
                        if r == 0 ? !(area > 0) : !(area < 0) {
                            c.wrong.append("\(name) feature \(i) ring \(r): twice the signed area \(area)")
                        }
                    }
                }
            }
        }
        return c
    }

    /// Shoelace on the written coordinates (positive: counterclockwise).
    private static func twiceSignedArea(_ ring: [[Double]]) -> Double {
        guard let o = ring.first else { return 0 }
        var s = 0.0
        for (p, q) in zip(ring, ring.dropFirst()) {
            s += (p[0] - o[0]) * (q[1] - o[1]) - (q[0] - o[0]) * (p[1] - o[1])
        }
        return s
    }

    func testEveryRingOfTheHelsinkiRunIsCounterclockwiseOutsideAndClockwiseInHoles() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let r = try ProcessRunner.flyrLink(["run", TestPaths.root.appendingPathComponent("pipelines/helsinki.toml").path, "--out", out, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let c = try census(out)
        // buildings.geojson and features.geojson: every accepted building's shell at least twice.
        XCTAssertGreaterThan(c.shells, 2 * 470)
        XCTAssertGreaterThan(c.holes, 0, "the sample has courtyards")
        XCTAssertEqual(c.wrong, [])
    }

    func testEveryRingOfTheLaDevRunIsCounterclockwiseOutsideAndClockwiseInHoles() throws {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let buildings = try TestPaths.sharedData("la_dev/buildings.geojson")
        let r = try ProcessRunner.flyrLink(["run", "--buildings", buildings, "--addresses", try TestPaths.sharedData("la_dev/addresses.geojson"),
                                            "--out", out, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let c = try census(out)
        XCTAssertGreaterThan(c.shells, 2 * 11_321, "buildings.geojson and features.geojson")
        XCTAssertGreaterThan(try OutputFiles.geojson(out + "/units.geojson").count, 100, "townhouse slices are checked too")
        XCTAssertEqual(c.wrong, [])

        // Only the direction changed: each outline is the source's ring, forwards or backwards,
        // to the 7 decimals written (la_dev is in lon/lat, and none of its outlines is repaired).
        var source: [String: [[Double]]] = [:]
        for f in try OutputFiles.geojson(buildings) {
            let g = f["geometry"] as! [String: Any]
            guard g["type"] as? String == "Polygon" else { continue }
            let id = "\(OutputFiles.properties(f)["id"]!)"
            source[id] = (g["coordinates"] as! [[[Double]]])[0].map { $0.prefix(2).map { ($0 * 1e7).rounded() } }
        }
        var same = 0, reversed = 0
        for f in try OutputFiles.geojson(out + "/buildings.geojson") {
            let g = f["geometry"] as! [String: Any]
            guard g["type"] as? String == "Polygon", let ring = source[f["id"] as! String] else { continue }
            let written = (g["coordinates"] as! [[[Double]]])[0].map { $0.map { ($0 * 1e7).rounded() } }
            if written == ring { same += 1 } else if written == ring.reversed() { reversed += 1 } else { XCTFail("\(f["id"]!): outline changed") }
        }
        XCTAssertEqual(same + reversed, source.count)
        XCTAssertGreaterThan(reversed, 11_000, "the source's outlines are clockwise")
    }
}
