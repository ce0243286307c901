import XCTest
@testable import FlyrLink

/// The output files against DESIGN.md's contract, on the Helsinki sample (many multi-address buildings).
final class OutputContractTests: XCTestCase {
    func runHelsinki(threads: Int = 2, out: URL? = nil) throws -> (LinkRun, URL) {
        let dir = out ?? TestPaths.temporaryDirectory(self).appendingPathComponent("out")
        var options = RunOptions(buildings: SourceSpec(location: TestPaths.helsinkiBuildings),
                                 addresses: SourceSpec(location: TestPaths.helsinkiAddresses), output: dir.path)
        options.threads = threads
        options.campaignID = "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"
        let run = try LinkPipeline(options: options).run()
        try RunWriter.write(run)
        return (run, dir)
    }

    func testFeaturesFollowTheFullFeaturesTable() throws {
        let (run, dir) = try runHelsinki()
        let features = try OutputFiles.geojson(dir.appendingPathComponent("features.geojson").path)
        let links = try OutputFiles.csv(dir.appendingPathComponent("links.csv").path)
        let rejects = try OutputFiles.csv(dir.appendingPathComponent("rejects.csv").path)
        let addresses = try OutputFiles.geojson(dir.appendingPathComponent("addresses.geojson").path)

        var linksPerBuilding: [String: Int] = [:]
        for l in links { linksPerBuilding[l["building_id"]!, default: 0] += 1 }
        let polygons = features.filter { (OutputFiles.properties($0)["source"] as? String) == "gold" }
        let points = features.filter { (OutputFiles.properties($0)["source"] as? String) == "address_point" }

        // One feature per building (slices replace their row: one feature per distinct building id).
        let buildingIDs = Set(polygons.map { OutputFiles.properties($0)["building_id"] as! String })
        XCTAssertEqual(buildingIDs.count, run.buildings.count)
        let slicedBuildings = Set(run.units.map { run.buildings[$0.buildingIndex].id })
        XCTAssertEqual(polygons.count, run.buildings.count - slicedBuildings.count + run.units.count)

        for f in polygons {
            let p = OutputFiles.properties(f)
            let building = p["building_id"] as! String
            let count = p["address_count"] as! Int
            XCTAssertEqual(count, linksPerBuilding[building] ?? 0, "address_count of \(building)")
            XCTAssertEqual(f["id"] as? String, p["gers_id"] as? String)
            XCTAssertEqual(p["gers_id"] as? String, building)
            let geometryType = (f["geometry"] as? [String: Any])?["type"] as? String
            XCTAssertTrue(geometryType == "Polygon" || geometryType == "MultiPolygon")
            for key in ["status", "scans_total", "qr_scanned", "height", "height_m"] { XCTAssertNotNil(p[key], key) }
            if p["unit_index"] != nil {
                XCTAssertNotNil(p["address_id"] as? String, "a slice names its address")
                continue
            }
            XCTAssertEqual(p["id"] as? String, building)
            if count == 1 {
                XCTAssertNotNil(p["address_id"] as? String)
                XCTAssertNotNil(p["match_method"] as? String)
            } else {
                XCTAssertTrue(p["address_id"] is NSNull, "address_id must be null when address_count is \(count)")
                XCTAssertTrue(p["house_number"] is NSNull)
            }
            if count == 0 {
                XCTAssertTrue(p["match_method"] is NSNull)
                XCTAssertTrue(p["confidence"] is NSNull)
            }
        }

        // One address_point per unlinked address, and every input address exactly once overall.
        let linked = Set(links.map { $0["address_id"]! })
        let unlinkedPoints = points.map { OutputFiles.properties($0)["address_id"] as! String }
        XCTAssertEqual(Set(unlinkedPoints).count, unlinkedPoints.count)
        XCTAssertTrue(Set(unlinkedPoints).isDisjoint(with: linked))
        for f in points {
            let p = OutputFiles.properties(f)
            XCTAssertNil(p["building_id"], "address_point features have no building_id")
            XCTAssertEqual(p["address_count"] as? Int, 1)
            XCTAssertEqual((f["geometry"] as? [String: Any])?["type"] as? String, "Point")
        }
        let rejectedAddresses = rejects.filter { $0["layer"] == "addresses" }.count
        XCTAssertEqual(linked.count + unlinkedPoints.count + rejectedAddresses, 1377, "every input address exactly once")
        XCTAssertEqual(linked.count, links.count, "an address is linked at most once")
        XCTAssertEqual(addresses.count, linked.count + unlinkedPoints.count)
    }

    func testLinksTableColumnsAndPrimaries() throws {
        let (run, dir) = try runHelsinki()
        let text = try String(contentsOfFile: dir.appendingPathComponent("links.csv").path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("id,campaign_id,building_id,address_id,unit_id,match_method,is_primary,confidence,distance_m\n"))
        let links = try OutputFiles.csv(dir.appendingPathComponent("links.csv").path)
        var primaries: [String: Int] = [:]
        for l in links {
            XCTAssertTrue(UUIDv5.isValid(l["id"]!))
            XCTAssertEqual(l["campaign_id"], "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b")
            XCTAssertTrue(["gold_exact", "gold_proximity"].contains(l["match_method"]!))
            let c = Double(l["confidence"]!)!
            XCTAssertTrue(c >= 0.5 && c <= 1.0)
            XCTAssertGreaterThanOrEqual(Double(l["distance_m"]!)!, 0)
            if l["is_primary"] == "true" { primaries[l["building_id"]!, default: 0] += 1 }
        }
        XCTAssertEqual(primaries.count, Set(links.map { $0["building_id"]! }).count)
        XCTAssertTrue(primaries.values.allSatisfy { $0 == 1 }, "one primary link per building")
        XCTAssertEqual(Set(links.map { $0["id"]! }).count, links.count)
        XCTAssertGreaterThan(run.report.counts.byMethod["gold_exact"] ?? 0, 1000)
    }

    func testOutputsAreByteIdenticalAcrossRunsAndThreadCounts() throws {
        let base = TestPaths.temporaryDirectory(self)
        _ = try runHelsinki(threads: 1, out: base.appendingPathComponent("t1"))
        _ = try runHelsinki(threads: 2, out: base.appendingPathComponent("t2"))
        _ = try runHelsinki(threads: 2, out: base.appendingPathComponent("t2-again"))
        let t1 = try OutputFiles.comparableContents(base.appendingPathComponent("t1"))
        let t2 = try OutputFiles.comparableContents(base.appendingPathComponent("t2"))
        let again = try OutputFiles.comparableContents(base.appendingPathComponent("t2-again"))
        XCTAssertEqual(Set(t1.keys), Set(RunWriter.files + [OutputMarker.name]))
        for name in RunWriter.files {
            XCTAssertEqual(t1[name], t2[name], "\(name) differs between --threads 1 and 2")
            XCTAssertEqual(t2[name], again[name], "\(name) differs between two runs")
        }
    }

    func testReportCountsAddUp() throws {
        let (run, dir) = try runHelsinki()
        let data = try Data(contentsOf: dir.appendingPathComponent("report.json"))
        let report = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let counts = report["counts"] as! [String: Any]
        let byMethod = counts["by_method"] as! [String: Int]
        XCTAssertEqual(byMethod.values.reduce(0, +), counts["linked"] as? Int)
        let histogram = report["confidence_histogram"] as! [[String: Any]]
        XCTAssertEqual(histogram.map { $0["links"] as! Int }.reduce(0, +), run.links.count)
        let inputs = report["inputs"] as! [String: [String: Any]]
        XCTAssertEqual((inputs["addresses"]?["sha256"] as? String)?.count, 64)
        XCTAssertNotNil((report["run"] as? [String: Any])?["seconds_by_stage"])
    }

    func testTerritoryKeepsBuildingsThatIntersectAndAddressesInside() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let territory = dir.appendingPathComponent("territory.geojson")
        // The western half of the sample.
        let polygon = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[24.935,60.164],[24.944,60.164],[24.944,60.18],[24.935,60.18],[24.935,60.164]]]}}]}"#
        try polygon.write(to: territory, atomically: true, encoding: .utf8)
        var options = RunOptions(buildings: SourceSpec(location: TestPaths.helsinkiBuildings),
                                 addresses: SourceSpec(location: TestPaths.helsinkiAddresses), output: dir.appendingPathComponent("out").path)
        options.territory = SourceSpec(location: territory.path)
        let run = try LinkPipeline(options: options).run()
        XCTAssertTrue(run.addresses.indices.allSatisfy { run.location(ofAddress: $0)!.x <= 24.944 })
        XCTAssertEqual(run.addressLocations.count, run.addresses.count, "every kept address keeps its point")
        XCTAssertTrue(run.buildings.indices.allSatisfy { run.footprint(ofBuilding: $0).bbox.minX <= 24.944 })
        XCTAssertTrue(run.buildings.indices.contains { run.footprint(ofBuilding: $0).bbox.maxX > 24.944 }, "a building crossing the edge is kept")
        XCTAssertGreaterThan(run.report.counts.outsideTerritory, 0)
        XCTAssertEqual(run.report.counts.addresses + run.report.counts.outsideTerritory + run.report.counts.rejected, 1377)
    }
}
