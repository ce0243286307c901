import Foundation
import XCTest
@testable import GeoParquet

/// Seeded mutation fuzzing of corpus files, in process. Every mutation must either read or throw
/// GeoParquetError; a crash fails the whole run. Budget: FLYR_FUZZ_SECONDS (default 20) or
/// FLYR_FUZZ_ITERATIONS (default 150000), whichever ends first.
final class FuzzTests: XCTestCase {
    func testSeededMutationFuzz() throws {
        let env = ProcessInfo.processInfo.environment
        let seconds = Double(env["FLYR_FUZZ_SECONDS"] ?? "") ?? 20
        let maxIterations = Int(env["FLYR_FUZZ_ITERATIONS"] ?? "") ?? 150_000
        let names = ["gpt_compression-none.parquet", "gpt_compression-snappy.parquet", "gpt_compression-gzip.parquet",
                     "gpt_compression-zstd.parquet", "gpt_compression-brotli.parquet", "gpt_compression-lz4-raw.parquet",
                     "ogc_v1.1.0_data-polygon-encoding_wkb.parquet", "ogc_v1.1.0_data-multipoint-encoding_wkb.parquet",
                     "geopandas_test_data_gdal390_float_bbox_covering.parquet", "gpio_buildings_test_duckdb_zstd.parquet"]
        var seeds = try names.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Corpus.path($0)))) }
        for fx in ["encodings_v2_gzip.parquet", "encodings_v1_dict_snappy.parquet"] {
            if let d = FileManager.default.contents(atPath: Corpus.fixture(fx)) { seeds.append([UInt8](d)) }
        }
        var rng = SplitMix64(seed: 0x6765_6f70_6172_7175)
        let start = Date()
        var iterations = 0, ok = 0, failed = 0
        while iterations < maxIterations && Date().timeIntervalSince(start) < seconds {
            let base = seeds[Int(rng.next() % UInt64(seeds.count))]
            let m = mutate(base, &rng)
            iterations += 1
            do {
                let f = try GeoParquetFile(bytes: m, name: "mutant\(iterations)")
                let cols = f.columns.filter(\.isReadable).map(\.path)
                let q: BoundingBox? = rng.next() % 2 == 0 ? BoundingBox(xmin: -50, ymin: -50, xmax: 50, ymax: 50) : nil
                try f.read(columns: cols, bbox: q) { b in
                    for w in b.geometryWKB { if let w { _ = try? WKBGeometry(wkb: w); _ = WKBGeometry.envelope(of: w) } }
                }
                ok += 1
            } catch let e as GeoParquetError {
                failed += 1
                XCTAssertFalse(e.description.contains("\n"))
            } catch {
                XCTFail("mutation \(iterations) threw a non-GeoParquetError: \(error)")
            }
        }
        print("fuzz: \(iterations) mutations, \(ok) read, \(failed) GeoParquetError, \(Date().timeIntervalSince(start)) s")
        XCTAssertGreaterThan(iterations, 200)
        XCTAssertGreaterThan(failed, 0)
    }

    /// Every input libFuzzer kept (Fuzz/corpus, merged after a 10-minute run) still reads or throws.
    func testFuzzCorpusReplays() throws {
        let dir = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().appendingPathComponent("../../Fuzz/corpus").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertGreaterThan(names.count, 100)
        var read = 0
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            do {
                let f = try GeoParquetFile(bytes: bytes, name: name)
                try f.read(columns: f.columns.filter(\.isReadable).map(\.path)) { b in
                    for w in b.geometryWKB { if let w { _ = try? WKBGeometry(wkb: w) } }
                }
                read += 1
            } catch let e as GeoParquetError {
                XCTAssertFalse(e.description.contains("\n"))
            }
        }
        XCTAssertGreaterThan(read, 0)
    }

    private func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = input
        let footerLen = b.count >= 8 ? Int(b[b.count - 8]) | Int(b[b.count - 7]) << 8 | Int(b[b.count - 6]) << 16 | Int(b[b.count - 5]) << 24 : 0
        let footerStart = max(0, b.count - 8 - footerLen)
        let rounds = 1 + Int(rng.next() % 6)
        for _ in 0..<rounds where !b.isEmpty {
            // Bias mutations towards the footer, where structure lives.
            let inFooter = rng.next() % 3 != 0 && footerStart < b.count - 8
            let at = inFooter ? footerStart + Int(rng.next() % UInt64(b.count - 8 - footerStart))
                              : Int(rng.next() % UInt64(b.count))
            switch rng.next() % 8 {
            case 0: b[at] ^= UInt8(1) << UInt8(rng.next() % 8)
            case 1: b[at] = UInt8(truncatingIfNeeded: rng.next())
            case 2: b[at] = [0x00, 0xff, 0x7f, 0x80, 0x15, 0x19, 0x1c, 0x0f][Int(rng.next() % 8)]
            case 3: b.removeSubrange(at..<min(b.count, at + 1 + Int(rng.next() % 16)))
            case 4: b.insert(contentsOf: (0..<(1 + Int(rng.next() % 8))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: at)
            case 5: // interesting 32-bit value
                let v: UInt32 = [0, 1, 0x7fff_ffff, 0xffff_ffff, 0x8000_0000, 0x10000][Int(rng.next() % 6)]
                for k in 0..<4 where at + k < b.count { b[at + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
            case 6: b = Array(b[0..<at])
            default: // duplicate a chunk
                let len = min(b.count - at, 1 + Int(rng.next() % 32))
                let chunk = Array(b[at..<(at + len)])
                let dst = Int(rng.next() % UInt64(b.count))
                b.replaceSubrange(dst..<min(b.count, dst + len), with: chunk)
            }
        }
        return b
    }
}
