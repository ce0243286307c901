import SyntheticCity
import XCTest
@testable import FlyrLink

/// Footprints compressed in memory come back to the bit, those asked for only, in order.
final class CompressedFootprintsTests: XCTestCase {
    func testCompressedFootprintsComeBackToTheBit() {
        var rng = SeededGenerator(seed: 9)
        // Over three chunks; parts, holes, an empty one, a negative zero and far coordinates, rings
        // left open, and one whose last point is its first but for the sign of a zero.
        var footprints = (0..<(2 * CompressedFootprints.chunkFootprints + 777)).map { _ in RandomFootprints.make(&rng) }
        footprints[3] = .empty
        footprints[4] = Footprint(points: [Point2(x: -0.0, y: 0), Point2(x: 1e300, y: -3), Point2(x: .leastNonzeroMagnitude, y: 2), Point2(x: -0.0, y: 0)], layoutEnds: [])
        footprints[5] = Footprint(points: [Point2(x: 1, y: 2), Point2(x: 3, y: 2), Point2(x: 3, y: 5)], layoutEnds: [])
        footprints[6] = Footprint(points: [Point2(x: 0.0, y: 2), Point2(x: 3, y: 2), Point2(x: 3, y: 5), Point2(x: -0.0, y: 2)], layoutEnds: [])
        let store = FootprintStore(footprints)
        let compressedBuildings = store.indices.filter { $0 % 3 != 1 || $0 < 10 }.map(Int32.init)
        let wanted = compressedBuildings.filter { $0 % 5 == 0 || $0 < 10 }
        XCTAssert([3, 4, 5, 6].allSatisfy { wanted.contains($0) })
        for threads in [1, 3] {
            let pool = WorkerPool(threads: threads)
            let compressed = CompressedFootprints(compressing: store, buildings: compressedBuildings, pool: pool)
            let back = compressed.store(of: wanted, pool: pool)
            XCTAssertEqual(back.count, wanted.count)
            for (k, b) in wanted.enumerated() {
                let original = footprints[Int(b)], restored = back.footprint(k)
                XCTAssertEqual(restored.points.map(\.x.bitPattern), original.points.map(\.x.bitPattern))
                XCTAssertEqual(restored.points.map(\.y.bitPattern), original.points.map(\.y.bitPattern))
                XCTAssertEqual(restored, original)
            }
            XCTAssertEqual(compressed.store(of: [], pool: pool).count, 0)
        }
    }
}
