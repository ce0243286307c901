import XCTest
@testable import FlyrLink

/// Every GDAL format the issue names reads to the same links as the GeoJSON original.
final class FormatTests: XCTestCase {
    /// The Helsinki sample run from GeoJSON: the reference the other formats must reproduce.
    func reference() throws -> [String: String] {
        try linkMap(buildings: SourceSpec(location: TestPaths.helsinkiBuildings), addresses: SourceSpec(location: TestPaths.helsinkiAddresses))
    }

    func linkMap(buildings: SourceSpec, addresses: SourceSpec, fields: FieldMapping = FieldMapping()) throws -> [String: String] {
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        var options = RunOptions(buildings: buildings, addresses: addresses, output: out)
        options.fields = fields
        options.units = .none
        let run = try LinkPipeline(options: options).run()
        var map: [String: String] = [:]
        for l in run.links { map[run.addresses[l.addressIndex].id] = run.buildings[l.buildingIndex].id }
        return map
    }

    func convert(_ format: String, _ ext: String, creation: [String] = []) throws -> (String, String) {
        let dir = TestPaths.temporaryDirectory(self)
        let b = dir.appendingPathComponent("buildings.\(ext)").path
        let a = dir.appendingPathComponent("addresses.\(ext)").path
        try ProcessRunner.ogr2ogr(["-f", format] + creation + [b, TestPaths.helsinkiBuildings])
        try ProcessRunner.ogr2ogr(["-f", format] + creation + [a, TestPaths.helsinkiAddresses])
        return (b, a)
    }

    func testFlatGeobuf() throws {
        let (b, a) = try convert("FlatGeobuf", "fgb")
        XCTAssertEqual(try linkMap(buildings: SourceSpec(location: b), addresses: SourceSpec(location: a)), try reference())
    }

    func testGeoJSONSeq() throws {
        let (b, a) = try convert("GeoJSONSeq", "geojsonl")
        XCTAssertEqual(try linkMap(buildings: SourceSpec(location: b), addresses: SourceSpec(location: a)), try reference())
    }

    func testGeoPackageWithNamedLayers() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let gpkg = dir.appendingPathComponent("helsinki.gpkg").path
        try ProcessRunner.ogr2ogr(["-f", "GPKG", "-nln", "footprints", gpkg, TestPaths.helsinkiBuildings])
        try ProcessRunner.ogr2ogr(["-f", "GPKG", "-update", "-nln", "entrances", gpkg, TestPaths.helsinkiAddresses])
        XCTAssertEqual(try linkMap(buildings: SourceSpec.parse("\(gpkg):footprints"), addresses: SourceSpec(location: gpkg, layer: "entrances")),
                       try reference())
    }

    func testShapefileInAProjectedCRS() throws {
        // Shapefile truncates field names to 10 characters: map them explicitly.
        let dir = TestPaths.temporaryDirectory(self)
        let b = dir.appendingPathComponent("buildings.shp").path, a = dir.appendingPathComponent("addresses.shp").path
        try ProcessRunner.ogr2ogr(["-f", "ESRI Shapefile", "-t_srs", "EPSG:3067", b, TestPaths.helsinkiBuildings])
        try ProcessRunner.ogr2ogr(["-f", "ESRI Shapefile", "-t_srs", "EPSG:3067", a, TestPaths.helsinkiAddresses])
        let fields = FieldMapping(address: ["house_number": "addr_house", "street_name": "addr_stree"])
        let map = try linkMap(buildings: SourceSpec(location: b), addresses: SourceSpec(location: a), fields: fields)
        let ref = try reference()
        // Reprojection moves entrance nodes by nanometres off shared outlines; nearly all agree.
        let agree = ref.filter { map[$0.key] == $0.value }.count
        XCTAssertGreaterThan(Double(agree) / Double(ref.count), 0.99, "\(agree) of \(ref.count)")
    }

    func testCSVWithWKT() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let b = dir.appendingPathComponent("buildings.csv").path, a = dir.appendingPathComponent("addresses.csv").path
        try ProcessRunner.ogr2ogr(["-f", "CSV", "-lco", "GEOMETRY=AS_WKT", b, TestPaths.helsinkiBuildings])
        try ProcessRunner.ogr2ogr(["-f", "CSV", "-lco", "GEOMETRY=AS_WKT", a, TestPaths.helsinkiAddresses])
        XCTAssertEqual(try linkMap(buildings: SourceSpec(location: b), addresses: SourceSpec(location: a)), try reference())
    }

    func testOSMPBFReadsMultipolygonsAndAddrTagsFromOtherTags() throws {
        let pbf = try TestPaths.sharedData("osm/helsinki.osm.pbf")
        let out = TestPaths.temporaryDirectory(self).appendingPathComponent("out").path
        let run = try LinkPipeline(options: RunOptions(buildings: SourceSpec(location: pbf), addresses: SourceSpec(location: pbf), output: out)).run()
        let b = try XCTUnwrap(run.report.inputs["buildings"]), a = try XCTUnwrap(run.report.inputs["addresses"])
        XCTAssertEqual(b.layer, "multipolygons")
        XCTAssertEqual(b.featuresRead, 494)
        XCTAssertEqual(a.layer, "points")
        XCTAssertEqual(a.featuresRead, 1377)
        XCTAssertEqual(a.fields["house_number"], "other_tags[addr:housenumber]")
        let kaivokatu = try XCTUnwrap(run.addresses.first { $0.id == "node/25389429" })
        XCTAssertEqual(kaivokatu.houseNumber, "1")
        XCTAssertEqual(kaivokatu.streetName, "Kaivokatu")
        XCTAssertEqual(kaivokatu[.postalCode], "00100")
        XCTAssertTrue(run.buildings.allSatisfy { $0.id.hasPrefix("way/") || $0.id.hasPrefix("relation/") })
        // Same links as the derived GeoJSON sample, but for nodes that sit exactly on an outline in
        // the PBF and 7-decimal rounding in the sample moved by a hair.
        var map: [String: String] = [:]
        for l in run.links { map[run.addresses[l.addressIndex].id] = run.buildings[l.buildingIndex].id }
        let ref = try reference()
        let agree = ref.filter { map[$0.key] == $0.value }.count
        XCTAssertGreaterThan(Double(agree) / Double(ref.count), 0.98, "\(agree) of \(ref.count)")
    }
}
