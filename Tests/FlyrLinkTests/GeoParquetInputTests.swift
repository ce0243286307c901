import XCTest
import SyntheticCity
@testable import FlyrLink

/// GeoParquet input through the project's reader (Debian's GDAL has no Parquet driver).
final class GeoParquetInputTests: XCTestCase {
    func run(_ buildings: String, _ addresses: String, out: URL, territory: String? = nil) throws -> LinkRun {
        var options = RunOptions(buildings: SourceSpec(location: buildings), addresses: SourceSpec(location: addresses), output: out.path)
        options.territory = territory.map { SourceSpec(location: $0) }
        options.campaignID = "0c5c3f5e-3b0a-5d0e-8f57-6b2a1d4c9e10"
        let run = try LinkPipeline(options: options).run()
        try RunWriter.write(run)
        return run
    }

    /// The synthetic city as GeoParquet (snappy and zstd, several row groups, written by pyarrow:
    /// scripts/make-parquet-city.py) gives the same outputs as the same city as FlatGeobuf.
    func testSyntheticCityFromGeoParquetMatchesFlatGeobuf() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let city = dir.appendingPathComponent("city")
        try generateCity(config: CityConfig(buildings: 2000, seed: 7), to: city)
        let fgbB = dir.appendingPathComponent("buildings.fgb").path, fgbA = dir.appendingPathComponent("addresses.fgb").path
        try ProcessRunner.ogr2ogr(["-f", "FlatGeobuf", fgbB, city.appendingPathComponent("buildings.geojson").path])
        try ProcessRunner.ogr2ogr(["-f", "FlatGeobuf", fgbA, city.appendingPathComponent("addresses.geojson").path])
        let fromFGB = try run(fgbB, fgbA, out: dir.appendingPathComponent("fgb"))
        let fromParquet = try run(TestPaths.fixture("city2k/buildings.snappy.parquet"), TestPaths.fixture("city2k/addresses.zstd.parquet"),
                                  out: dir.appendingPathComponent("parquet"))
        XCTAssertEqual(fromParquet.report.inputs["buildings"]?.reader, "flyr-link GeoParquet reader")
        XCTAssertEqual(fromParquet.report.inputs["buildings"]?.parquet?.rowGroupsTotal, 4)
        XCTAssertEqual(fromFGB.report.inputs["buildings"]?.reader, "flyr-link FlatGeobuf reader")
        let a = try OutputFiles.comparableContents(dir.appendingPathComponent("fgb"))
        let b = try OutputFiles.comparableContents(dir.appendingPathComponent("parquet"))
        // (The report and its page name the readers.)
        for name in RunWriter.files where name != "report.json" && name != "report.html" {
            XCTAssertEqual(a[name], b[name], "\(name) differs between FlatGeobuf and GeoParquet input")
        }
        XCTAssertEqual(fromParquet.links.count, fromFGB.links.count)
        XCTAssertGreaterThan(fromParquet.links.count, 1900)
    }

    func testTerritoryPrunesRowGroups() throws {
        let dir = TestPaths.temporaryDirectory(self)
        // A small box in the city's south-west corner.
        let box = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[10.199,56.149],[10.203,56.149],[10.203,56.152],[10.199,56.152],[10.199,56.149]]]}}]}"#
        let territory = dir.appendingPathComponent("t.geojson")
        try box.write(to: territory, atomically: true, encoding: .utf8)
        let run = try run(TestPaths.fixture("city2k/buildings.snappy.parquet"), TestPaths.fixture("city2k/addresses.zstd.parquet"),
                          out: dir.appendingPathComponent("out"), territory: territory.path)
        let p = try XCTUnwrap(run.report.inputs["buildings"]?.parquet)
        XCTAssertLessThan(p.rowGroupsRead, p.rowGroupsTotal)
        XCTAssertGreaterThan(run.buildings.count, 0)
        XCTAssertEqual(run.report.counts.addresses + run.report.counts.outsideTerritory + run.report.counts.rejected, 2092,
                       "addresses outside the territory are counted, read or skipped")
    }

    func testOvertureBuildingsAreRecognisedWithoutFlags() throws {
        let overture = try TestPaths.sharedData("geoparquet/geoarrowrs_overture_buildings_100.parquet")
        let table = try SourceReader.read(SourceSpec(location: overture), role: .buildings, mapping: FieldMapping())
        XCTAssertEqual(table.records.count, 100)
        XCTAssertEqual(table.resolvedFields["id"], "id")
        XCTAssertEqual(table.resolvedFields["levels"] ?? "num_floors", "num_floors")
        XCTAssertTrue(table.records.allSatisfy { $0.values[0] != nil && $0.geometry != nil })
        XCTAssertEqual(table.reader, "flyr-link GeoParquet reader")
    }

    func testForcingGDALWithoutItsParquetDriverIsOneClearError() throws {
        try XCTSkipIf(GDALEnvironment.hasDriver("Parquet"), "this GDAL has a Parquet driver")
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.fixture("city2k/buildings.snappy.parquet"),
                                            "--addresses", TestPaths.fixture("city2k/addresses.zstd.parquet"), "--out", out, "--parquet-reader", "gdal"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no Parquet driver"), r.stderr)
    }

    func testBrokenParquetIsOneClearError() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let broken = dir.appendingPathComponent("broken.parquet")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.fixture("city2k/buildings.snappy.parquet")))
        try bytes.prefix(bytes.count / 2).write(to: broken)
        let r = try ProcessRunner.flyrLink(["run", "--buildings", broken.path, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", dir.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("broken.parquet"), r.stderr)
    }
}

/// A layer larger than one process holds (`LayerLimits`: 2³¹ rows, 2³² footprint points) is one
/// error naming the source, not a trap; here with limits small enough to reach.
final class LayerLimitsTests: XCTestCase {
    /// A whole GeoParquet read is refused from its footers, before the rows are read.
    func testAGeoParquetReadOfMoreRowsThanAProcessHoldsIsRefusedFromItsFooters() throws {
        let spec = SourceSpec(location: TestPaths.fixture("city2k/buildings.snappy.parquet"))
        XCTAssertThrowsError(try GeoParquetSourceReader.read(spec, role: .buildings, mapping: FieldMapping(), lonLatBox: nil,
                                                             limits: LayerLimits(rows: 1999))) { error in
            XCTAssertTrue("\(error)".contains("buildings: \(spec.description): more than 1999 rows"), "\(error)")
        }
        let table = try GeoParquetSourceReader.read(spec, role: .buildings, mapping: FieldMapping(), lonLatBox: nil, limits: LayerLimits(rows: 2000))
        XCTAssertEqual(table.recordCount, 2000)
    }

    /// The ingest of any reader's rows stops at the limits (rows, or the footprints' points) and says so.
    func testTheIngestRefusesMoreRowsOrPointsThanAProcessHolds() throws {
        let pool = WorkerPool(threads: 1)
        let buildings = try GDALSourceReader.read(SourceSpec(location: TestPaths.helsinkiBuildings), role: .buildings, mapping: FieldMapping())
        let addresses = try GDALSourceReader.read(SourceSpec(location: TestPaths.helsinkiAddresses), role: .addresses, mapping: FieldMapping())
        let points = buildings.records.reduce(0) { total, r in
            if case .polygons(let f)? = r.geometry { return total + f.points.count }
            return total
        }
        for limits in [LayerLimits(rows: buildings.records.count - 1), LayerLimits(points: points / 2)] {
            let intake = Ingest.BuildingIntake(limits: limits)
            var records = buildings.records
            intake.consume(&records)
            XCTAssertThrowsError(try intake.finish(buildings, pool: pool)) { error in
                XCTAssertTrue("\(error)".contains("buildings: \(TestPaths.helsinkiBuildings): " + (limits.rows < Int(Int32.max) ? "more than" : "footprints of more than")), "\(error)")
            }
        }
        let intake = Ingest.AddressIntake(limits: LayerLimits(rows: addresses.records.count - 1))
        var records = addresses.records
        intake.consume(&records)
        XCTAssertThrowsError(try intake.sortIDs(addresses, pool: pool)) { error in
            XCTAssertTrue("\(error)".contains("more than \(addresses.records.count - 1) rows"), "\(error)")
        }
        // At the limits, the same rows are taken as ever.
        let exact = Ingest.BuildingIntake(limits: LayerLimits(rows: buildings.records.count, points: points))
        var all = buildings.records
        exact.consume(&all)
        XCTAssertEqual(try exact.finish(buildings, pool: pool).rows.count, try Self.acceptedBuildings(buildings, pool: pool))
    }

    private static func acceptedBuildings(_ table: SourceTable, pool: WorkerPool) throws -> Int {
        let intake = Ingest.BuildingIntake()
        var records = table.records
        intake.consume(&records)
        return try intake.finish(table, pool: pool).rows.count
    }
}
