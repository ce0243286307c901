import Foundation
import XCTest
@testable import FlyrLink

/// Every input the libFuzzer targets kept (Fuzz/corpus-<target>, merged after a 10-minute run of
/// Fuzz/run-flyrlink-fuzzer.sh) goes through the reader's normal entry point again: it must read
/// or fail with an error, never crash. Inputs the fuzzers once crashed on are kept in the corpora.
final class FuzzCorpusTests: XCTestCase {
    private func corpus(_ target: String) throws -> [(name: String, bytes: Data)] {
        let dir = TestPaths.root.appendingPathComponent("Fuzz/corpus-\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertGreaterThan(names.count, 5, "Fuzz/corpus-\(target) is missing or nearly empty")
        return try names.map { ($0, try Data(contentsOf: dir.appendingPathComponent($0))) }
    }

    /// Writes `bytes` to a scratch file ending in `suffix` (the readers take a path).
    private func scratchFile(_ bytes: Data, suffix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-fuzz-replay-\(getpid())\(suffix)").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    func testGeoJSONCorpusReplays() throws {
        var read = 0, failed = 0, notFeatures = 0
        for (_, bytes) in try corpus("geojson") {
            let path = try scratchFile(bytes, suffix: ".geojson")
            for role in [LayerRole.buildings, .addresses] {
                do {
                    if try GeoJSONSourceReader.readOwn(SourceSpec(location: path), role: role, mapping: FieldMapping()) != nil {
                        read += 1
                    } else {
                        notFeatures += 1
                    }
                } catch {
                    failed += 1
                }
            }
        }
        print("GeoJSON corpus: \(read) read, \(notFeatures) not features, \(failed) failed")
        XCTAssertGreaterThan(read, 0)
        XCTAssertGreaterThan(failed, 0)
    }

    func testFlatGeobufCorpusReplays() throws {
        var read = 0, failed = 0
        for (_, bytes) in try corpus("flatgeobuf") {
            let path = try scratchFile(bytes, suffix: ".fgb")
            for (role, chunk) in [(LayerRole.buildings, 2 << 20), (.addresses, 64)] {
                do {
                    _ = try FlatGeobufSourceReader.readOwn(SourceSpec(location: path), role: role, mapping: FieldMapping(), chunkSize: chunk)
                    read += 1
                } catch {
                    failed += 1
                }
            }
        }
        print("FlatGeobuf corpus: \(read) read, \(failed) failed")
        XCTAssertGreaterThan(read, 0)
        XCTAssertGreaterThan(failed, 0)
    }

    func testWKBCorpusReplays() throws {
        var decoded = 0, rejected = 0
        for (_, bytes) in try corpus("wkb") {
            let record = SourceTable.Record(ordinal: 1, values: [], wkb: [UInt8](bytes))
            XCTAssertTrue((record.geometry == nil) != (record.geometryError == nil))
            if case .polygons(let footprint) = record.geometry { _ = footprint.area }
            if record.geometry != nil { decoded += 1 } else { rejected += 1 }
        }
        print("WKB corpus: \(decoded) decoded, \(rejected) rejected")
        XCTAssertGreaterThan(decoded, 0)
        XCTAssertGreaterThan(rejected, 0)
    }

    func testPipelineCorpusReplays() throws {
        var loaded = 0, failed = 0
        for (_, bytes) in try corpus("pipeline") {
            let path = try scratchFile(bytes, suffix: ".toml")
            do { _ = try PipelineFile.load(path); loaded += 1 } catch { failed += 1 }
            do { _ = try SnapshotPipelineFile.load(path); loaded += 1 } catch { failed += 1 }
        }
        print("pipeline corpus: \(loaded) loaded, \(failed) failed")
        XCTAssertGreaterThan(loaded, 0)
        XCTAssertGreaterThan(failed, 0)
    }
}
