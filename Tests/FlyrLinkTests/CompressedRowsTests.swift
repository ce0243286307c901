import XCTest
@testable import FlyrLink

/// Rows compressed in memory come back whole, in the order they are arranged in, on
/// any thread count.
final class CompressedRowsTests: XCTestCase {
    /// Over two chunks, with rows without any value (no record), nils, long and non-ASCII text.
    private func addresses(_ n: Int) -> [AddressPoint] {
        (0..<n).map { k in
            switch k % 4 {
            case 0: AddressPoint(id: "", values: [], sourceRow: k + 1)
            case 1: AddressPoint(id: "a\(k)", values: ["\(k)", nil, "Σ\(k)"], sourceRow: k + 1)
            case 2: AddressPoint(id: String(repeating: "é", count: k % 300), values: [nil, "Street \(k % 17)"], sourceRow: k + 1)
            default: AddressPoint(id: "a\(k)", values: ["\(k)", "Main", "u", "f", "l", "r", "p"], sourceRow: k + 1)
            }
        }
    }

    func testRowsComeBackWholeFromEitherWayOfCompressing() {
        let rows = addresses(CompressedRows<AddressPoint>.chunkRows + 1_234)
        for threads in [1, 3] {
            let pool = WorkerPool(threads: threads)
            XCTAssertEqual(CompressedRows(compressing: rows, pool: pool).decompressed(pool: pool), rows)
            let builder = CompressedRows<AddressPoint>.Builder()
            for row in rows { builder.append(row) }
            let built = builder.finish()
            XCTAssertEqual(built.count, rows.count)
            XCTAssertEqual(built.decompressed(pool: pool), rows)
            XCTAssertEqual(built.map(pool: pool) { k, row in "\(k) \(row.id)" }, rows.indices.map { "\($0) \(rows[$0].id)" })
        }
        let buildings = (0..<5_000).map { k in
            Building(id: k % 7 == 0 ? "" : "b\(k)", height: k % 3 == 0 ? nil : Double(k) / 8, levels: k % 5 == 0 ? nil : k % 40, sourceRow: k + 1)
        }
        XCTAssertEqual(CompressedRows(compressing: buildings, pool: WorkerPool(threads: 2)).decompressed(pool: WorkerPool(threads: 2)), buildings)
    }

    /// A row keeps its number in the whole source, beyond 2³¹ (a tile of Overture's 2.5 billion
    /// buildings reads rows numbered so), up to 2³² − 1.
    func testRowNumbersBeyondTwoToTheThirtyOneComeBack() {
        let pool = WorkerPool(threads: 2)
        let numbers = [1, Int(Int32.max), Int(Int32.max) + 1, 2_500_000_000, RowNumber.limit]
        let buildings = numbers.map { Building(id: "b\($0)", height: 3, levels: 1, sourceRow: $0) }
        XCTAssertEqual(CompressedRows(compressing: buildings, pool: pool).decompressed(pool: pool).map(\.sourceRow), numbers)
        let addresses = numbers.map { AddressPoint(id: "a\($0)", values: ["1"], sourceRow: $0) }
        XCTAssertEqual(CompressedRows(compressing: addresses, pool: pool).decompressed(pool: pool).map(\.sourceRow), numbers)
    }

    func testArrangedAndKeptRowsComeBackInThatOrder() {
        let pool = WorkerPool(threads: 2)
        let rows = addresses(2 * CompressedRows<AddressPoint>.chunkRows + 10)
        let compressed = CompressedRows(compressing: rows, pool: pool)
        var g = SystemRandomNumberGenerator()
        let order = rows.indices.filter { $0 % 3 != 1 }.shuffled(using: &g).map(Int32.init)
        compressed.arrange(order)
        XCTAssertEqual(compressed.count, order.count)
        XCTAssertEqual(compressed.decompressed(pool: pool), order.map { rows[Int($0)] })
        XCTAssertEqual(compressed.map(pool: pool) { _, row in row.sourceRow }, order.map { rows[Int($0)].sourceRow })
        let positions = [5, 0, order.count - 1, 5, CompressedRows<AddressPoint>.chunkRows]
        XCTAssertEqual(compressed.rows(at: positions, pool: pool), positions.map { rows[Int(order[$0])] })
        let keep = order.indices.map { $0 % 2 == 0 }
        compressed.keep(keep)
        XCTAssertEqual(compressed.decompressed(pool: pool), order.indices.filter { keep[$0] }.map { rows[Int(order[$0])] })
    }
}
