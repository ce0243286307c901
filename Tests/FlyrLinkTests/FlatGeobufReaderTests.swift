import XCTest
import SyntheticCity
@testable import FlyrLink

/// The project's FlatGeobuf reader gives the same records as GDAL's FlatGeobuf driver, and the
/// same run outputs; damaged files give one clear error.
final class FlatGeobufReaderTests: XCTestCase {
    typealias Writer = FlatGeobufTestWriter

    // MARK: helpers

    /// Reads `path` with both readers and compares every record. The project's reader must read
    /// the file itself (no hand-over to GDAL). Returns its table.
    @discardableResult
    func assertSameAsGDAL(_ path: String, role: LayerRole, mapping: FieldMapping = FieldMapping(), chunkSize: Int = 8 << 20,
                          file: StaticString = #filePath, line: UInt = #line) throws -> SourceTable {
        let spec = SourceSpec(location: path)
        XCTAssertTrue(FlatGeobufSourceReader.handles(spec), file: file, line: line)
        let ours = try FlatGeobufSourceReader.readOwn(spec, role: role, mapping: mapping, chunkSize: chunkSize)
        let gdal = try GDALSourceReader.read(spec, role: role, mapping: mapping)
        XCTAssertEqual(ours.reader, "flyr-link FlatGeobuf reader", file: file, line: line)
        XCTAssertEqual(gdal.reader, "GDAL/FlatGeobuf", file: file, line: line)
        assertSameRecords(ours, gdal, file: file, line: line)
        return ours
    }

    func assertSameRecords(_ ours: SourceTable, _ gdal: SourceTable, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ours.layerName, gdal.layerName, file: file, line: line)
        XCTAssertEqual(ours.resolvedFields, gdal.resolvedFields, file: file, line: line)
        XCTAssertEqual(ours.records.count, gdal.records.count, file: file, line: line)
        var differences: [String] = []
        for (a, b) in zip(ours.records, gdal.records) {
            if a.ordinal != b.ordinal { differences.append("ordinal \(a.ordinal) vs \(b.ordinal)") }
            if a.values != b.values { differences.append("row \(a.ordinal) values \(a.values) vs \(b.values)") }
            if a.geometry != b.geometry { differences.append("row \(a.ordinal) geometry \(String(describing: a.geometry)) vs \(String(describing: b.geometry))") }
            if a.geometryError != b.geometryError { differences.append("row \(a.ordinal) geometry error \(a.geometryError ?? "-") vs \(b.geometryError ?? "-")") }
        }
        XCTAssertEqual(differences.count, 0, "\(differences.count) differences, first: \(differences.prefix(3))", file: file, line: line)
        switch (ours.crsDefinition, gdal.crsDefinition) {
        case (nil, nil): break
        case (let a?, let b?):
            XCTAssertEqual(CRSInfo.authorityName(a), CRSInfo.authorityName(b), file: file, line: line)
            XCTAssertEqual(CRSInfo.isWGS84(a), CRSInfo.isWGS84(b), file: file, line: line)
        case (let a, let b):
            XCTFail("CRS \(a ?? "none") vs \(b ?? "none")", file: file, line: line)
        }
    }

    func fgb(_ name: String, from source: String, _ options: [String] = [], layer: String? = nil) throws -> String {
        let path = TestPaths.temporaryDirectory(self).appendingPathComponent(name).path
        try ProcessRunner.ogr2ogr(["-f", "FlatGeobuf"] + options + [path, source] + (layer.map { [$0] } ?? []))
        return path
    }

    func write(_ writer: Writer, _ name: String) throws -> String {
        let url = TestPaths.temporaryDirectory(self).appendingPathComponent(name)
        try writer.data().write(to: url)
        return url.path
    }

    // MARK: files GDAL writes

    /// Read within a box (a tile of a distributed run): exactly the records, ordinals and all, of a
    /// whole read whose geometry's box meets it; a file without an index is read whole.
    func testReadWithinABoxByTheSpatialIndex() throws {
        let b = try fgb("b.fgb", from: TestPaths.helsinkiBuildings)
        let spec = SourceSpec(location: b)
        let whole = try FlatGeobufSourceReader.readOwn(spec, role: .buildings, mapping: FieldMapping())
        let boxOf = { (r: SourceTable.Record) -> BBox in
            if case .polygons(let f)? = r.geometry { return f.bbox }
            return .empty
        }
        var extent = BBox.empty
        for r in whole.records { extent.extend(boxOf(r)) }
        let w = extent.maxX - extent.minX, h = extent.maxY - extent.minY
        for box in [BBox(minX: extent.minX + 0.3 * w, minY: extent.minY + 0.2 * h, maxX: extent.minX + 0.6 * w, maxY: extent.minY + 0.5 * h),
                    BBox(minX: extent.minX - 1, minY: extent.minY - 1, maxX: extent.minX - 0.5, maxY: extent.minY - 0.5), extent] {
            let part = try FlatGeobufSourceReader.readOwn(spec, role: .buildings, mapping: FieldMapping(), lonLatBox: box)
            let expected = whole.records.filter { boxOf($0).intersects(box) }
            XCTAssertEqual(part.records.map(\.ordinal), expected.map(\.ordinal))
            XCTAssertEqual(part.records.map(\.values), expected.map(\.values))
            XCTAssertEqual(part.records.map(\.geometry), expected.map(\.geometry))
        }
        let unindexed = try fgb("u.fgb", from: TestPaths.helsinkiBuildings, ["-lco", "SPATIAL_INDEX=NO"])
        let box = BBox(minX: extent.minX, minY: extent.minY, maxX: extent.minX + 0.1 * w, maxY: extent.minY + 0.1 * h)
        XCTAssertEqual(try FlatGeobufSourceReader.readOwn(SourceSpec(location: unindexed), role: .buildings, mapping: FieldMapping(),
                                                          lonLatBox: box).records.count, whole.records.count)
    }

    /// A spatial index whose offsets break the packed tree's rules: one clear error, no crash.
    func testACorruptSpatialIndexIsRefusedWhenSearched() throws {
        let path = try fgb("b.fgb", from: TestPaths.helsinkiBuildings)
        let whole = try FlatGeobufSourceReader.readOwn(SourceSpec(location: path), role: .buildings, mapping: FieldMapping())
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let headerSize = Int(original[8]) | Int(original[9]) << 8 | Int(original[10]) << 16 | Int(original[11]) << 24
        let index = FlatGeobufIndex(featureCount: whole.records.count, nodeSize: 16)
        let indexStart = FlatGeobufHeader.prefixSize + headerSize
        let firstLeaf = indexStart + index.levels[0].lowerBound * FlatGeobufIndex.nodeBytes
        let root = indexStart
        // A leaf's offset far outside the file; the root's first child elsewhere than the packed place.
        for (at, value) in [(firstLeaf + 32, UInt64.max), (firstLeaf + 32, UInt64(1) << 62), (root + 32, UInt64(7))] {
            var bytes = original
            for k in 0..<8 { bytes[at + k] = UInt8((value >> (8 * UInt64(k))) & 0xFF) }
            let broken = TestPaths.temporaryDirectory(self).appendingPathComponent("broken.fgb")
            try bytes.write(to: broken)
            XCTAssertThrowsError(try FlatGeobufSourceReader.readOwn(SourceSpec(location: broken.path), role: .buildings, mapping: FieldMapping(),
                                                                    lonLatBox: BBox(minX: -180, minY: -90, maxX: 180, maxY: 90))) { error in
                guard case .corrupt(let why)? = error as? FlatGeobufProblem else { return XCTFail("\(error)") }
                XCTAssertTrue(why.contains("spatial index"), why)
            }
        }
    }

    func testHelsinkiSampleWithAndWithoutSpatialIndex() throws {
        for options in [[], ["-lco", "SPATIAL_INDEX=NO"]] {
            let b = try fgb("b.fgb", from: TestPaths.helsinkiBuildings, options)
            let a = try fgb("a.fgb", from: TestPaths.helsinkiAddresses, options)
            let buildings = try assertSameAsGDAL(b, role: .buildings)
            let addresses = try assertSameAsGDAL(a, role: .addresses)
            XCTAssertEqual(buildings.records.count, 494)
            XCTAssertEqual(addresses.records.count, 1377)
            XCTAssertEqual(buildings.crsDefinition, "EPSG:4326")
            // Small chunks: features cross chunk boundaries and outgrow the buffer.
            try assertSameAsGDAL(b, role: .buildings, chunkSize: 1000)
            try assertSameAsGDAL(a, role: .addresses, chunkSize: 300)
        }
    }

    func testSyntheticCity() throws {
        let city = TestPaths.temporaryDirectory(self).appendingPathComponent("city")
        try generateCity(config: CityConfig(buildings: 800, seed: 11), to: city)
        let b = try assertSameAsGDAL(try fgb("b.fgb", from: city.appendingPathComponent("buildings.geojson").path), role: .buildings)
        try assertSameAsGDAL(try fgb("a.fgb", from: city.appendingPathComponent("addresses.geojson").path), role: .addresses)
        XCTAssertEqual(b.records.count, 800)
        XCTAssertEqual(b.resolvedFields["height"], "height")
        XCTAssertTrue(b.records.allSatisfy { $0.values[1] != nil }, "heights (Real) are read")
    }

    func testProjectedCRS() throws {
        let b = try assertSameAsGDAL(try fgb("b.fgb", from: TestPaths.helsinkiBuildings, ["-t_srs", "EPSG:3067"]), role: .buildings)
        XCTAssertEqual(b.crsDefinition, "EPSG:3067")
        guard case .polygons(let p)? = b.records.first?.geometry else { return XCTFail("no polygon") }
        XCTAssertGreaterThan(p.polygons[0].shell[0].x, 300_000, "metres, not degrees")
    }

    func testMultiPolygonsHolesAndMixedGeometryTypes() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let source = dir.appendingPathComponent("mixed.geojson")
        let shell = "[[0,0],[10,0],[10,10],[0,10],[0,0]]", hole = "[[2,2],[2,4],[4,4],[4,2],[2,2]]"
        let geometries = [
            #"{"type":"Polygon","coordinates":[\#(shell),\#(hole)]}"#,
            #"{"type":"MultiPolygon","coordinates":[[\#(shell),\#(hole)],[[[20,20],[21,20],[21,21],[20,20]]]]}"#,
            #"{"type":"Point","coordinates":[1.5,2.5]}"#,
            #"{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}"#,
            #"{"type":"LineString","coordinates":[[1,2],[3,4]]}"#,
            #"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8]]]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"Polygon","coordinates":[\#(shell)]},{"type":"Polygon","coordinates":[\#(hole)]}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"Point","coordinates":[3,4]}]}"#,
            #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"LineString","coordinates":[[1,2],[3,4]]}]}"#,
        ]
        let features = geometries.enumerated().map { #"{"type":"Feature","properties":{"id":"f\#($0.offset)","height":\#($0.offset).5},"geometry":\#($0.element)}"# }
        try #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.write(to: source, atomically: true, encoding: .utf8)
        let table = try assertSameAsGDAL(try fgb("mixed.fgb", from: source.path), role: .buildings)
        XCTAssertEqual(table.records.count, geometries.count)
        let kinds = Dictionary(table.records.map { ($0.values[0] ?? "", $0.geometry) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(kinds["f0"], .polygons(Footprint(polygons: [Polygon(rings: [[Point2(x: 0, y: 0), Point2(x: 10, y: 0), Point2(x: 10, y: 10), Point2(x: 0, y: 10), Point2(x: 0, y: 0)],
                                                              [Point2(x: 2, y: 2), Point2(x: 2, y: 4), Point2(x: 4, y: 4), Point2(x: 4, y: 2), Point2(x: 2, y: 2)]])])))
        if case .polygons(let p)?? = kinds["f1"] { XCTAssertEqual(p.polygons.map(\.rings.count), [2, 1]) } else { XCTFail("f1 \(String(describing: kinds["f1"]))") }
        XCTAssertEqual(kinds["f4"], .other("LineString"))
        XCTAssertEqual(kinds["f5"], .other("MultiLineString"))
        XCTAssertEqual(kinds["f7"], .multiPoint([Point2(x: 1, y: 2), Point2(x: 3, y: 4)]))
    }

    /// Every column type GDAL writes from a typed CSV (CSVT), null and empty cells included,
    /// each read through a canonical field.
    func testEveryPropertyTypeGDALWrites() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let csv = dir.appendingPathComponent("typed.csv")
        let header = "lon,lat,id,i32,i64,flag,small,real,f32,fixed,text,day,moment,clock"
        let rows = [
            "24.9,60.1,a1,42,9007199254740993,1,-7,2.9,0.15,3.14159,Mannerheimintie,2021-03-04,2021-03-04 05:06:07,05:06:07",
            "24.9,60.2,a2,-1,-5,0,32000,0.30000000000000004,1.5,-0.5,Ääkkönen ✓,1999-12-31,2021-03-04 05:06:07.5+05:30,23:59:59",
            "24.9,60.3,a3,,,,,,,,,,,",
            "24.9,60.4,a4,0,0,1,0,1e-07,3.4028235e+38,1000000,\"with, comma\",2000-01-01,2000-01-01 00:00:00+00,00:00:00.250",
            "24.9,60.5,a5,7,123456789012,0,1,123456789012345678,100,12.345,x,2024-02-29,2024-02-29 23:59:59-03:00,12:00:00",
            "24.9,60.6,a6,8,8,1,2,-0.0,-2.5e-05,0,\"\",2024-02-29,2024-02-29 10:00:00,01:02:03",
        ]
        try ([header] + rows).joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
        try #""Real","Real","String","Integer","Integer64","Integer(Boolean)","Integer(Int16)","Real","Real(Float32)","Real(10.3)","String","Date","DateTime","Time""#
            .write(to: dir.appendingPathComponent("typed.csvt"), atomically: true, encoding: .utf8)
        let path = try fgb("typed.fgb", from: csv.path, ["-oo", "X_POSSIBLE_NAMES=lon", "-oo", "Y_POSSIBLE_NAMES=lat", "-a_srs", "EPSG:4326"])
        let mappings = [
            FieldMapping(address: ["id": "id", "house_number": "i32", "street_name": "i64", "unit": "flag", "formatted": "small",
                                   "locality": "real", "region": "f32", "postal_code": "fixed"]),
            FieldMapping(address: ["house_number": "text", "street_name": "day", "unit": "moment", "formatted": "clock"]),
        ]
        var seen: [String: String?] = [:]  // "column row-id" → value
        for mapping in mappings {
            let table = try assertSameAsGDAL(path, role: .addresses, mapping: mapping)
            XCTAssertEqual(table.records.count, rows.count)
            for (field, column) in mapping.address {
                let index = AddressField.allCases.firstIndex { $0.rawValue == field }!
                for r in table.records { seen["\(column) \(r.values[0] ?? "?")"] = r.values[index] }
            }
        }
        // The comparison above is only worth something if the values are really there.
        XCTAssertEqual(seen["i32 a1"], "42")
        XCTAssertEqual(seen["i64 a1"], "9007199254740993")
        XCTAssertEqual(seen["real a2"], "0.3")
        XCTAssertEqual(seen["fixed a1"], "3.142")
        XCTAssertEqual(seen["text a2"], "Ääkkönen ✓")
        XCTAssertEqual(seen["moment a2"], "2021/03/04 05:06:07.500+0530")
        XCTAssertEqual(seen["i32 a3"], .some(nil))
        XCTAssertEqual(seen["flag a1"], "1")
        XCTAssertEqual(seen["f32 a1"], "0.15")
        XCTAssertEqual(seen["day a1"], "2021/03/04 00:00:00")
        XCTAssertEqual(seen["clock a1"], .some(nil), "GDAL writes a Time as 0000-00-00T…, which it then does not parse")
    }

    func testBinaryColumnAndOSMOtherTags() throws {
        let blob = try fgb("blob.fgb", from: TestPaths.helsinkiAddresses,
                           ["-dialect", "SQLite", "-sql", "SELECT *, CAST(\"addr:housenumber\" AS BLOB) AS blob FROM addresses"])
        let table = try assertSameAsGDAL(blob, role: .addresses, mapping: FieldMapping(address: ["unit": "blob"]))
        XCTAssertTrue(table.records.contains { ($0.values[3] ?? "").allSatisfy(\.isHexDigit) && $0.values[3] != nil })

        let pbf = try TestPaths.sharedData("osm/helsinki.osm.pbf")
        let points = try fgb("points.fgb", from: pbf, layer: "points")
        let osm = try assertSameAsGDAL(points, role: .addresses)
        XCTAssertEqual(osm.resolvedFields["house_number"], "other_tags[addr:housenumber]")
    }

    func testEmptyLayer() throws {
        let empty = try fgb("empty.fgb", from: TestPaths.helsinkiAddresses, ["-where", "1=0"])
        XCTAssertEqual(try assertSameAsGDAL(empty, role: .addresses).records.count, 0)
    }

    // MARK: files GDAL's writer does not make

    func testEveryColumnTypeNullGeometryAndMissingProperties() throws {
        // Column types 0…14: Byte … Binary, plus an id.
        let names = ["byte", "ubyte", "bool", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "string", "json", "datetime", "binary"]
        var w = Writer(geometryType: 1)
        w.columns = names.enumerated().map { Writer.Column(name: $0.element, type: UInt8($0.offset)) } + [Writer.Column(name: "id", type: 11)]
        let all: [(UInt16, [UInt8])] = [
            (0, [0xFE]), (1, [0xFE]), (2, [1]), (3, Writer.le(Int16(-300))), (4, Writer.le(UInt16(65000))), (5, Writer.le(Int32(-70000))),
            (6, Writer.le(UInt32(4_000_000_000))), (7, Writer.le(Int64.min)), (8, Writer.le(UInt64.max)), (9, Writer.le(Float(0.1))),
            (10, Writer.le(2.5)), (11, Writer.text("Bulevardi 5")), (12, Writer.text(#"{"a":1}"#)),
            (13, Writer.text("2020-01-02T03:04:05.250Z")), (14, Writer.le(UInt32(3)) + [0x00, 0xAB, 0x10]), (15, Writer.text("x1")),
        ]
        let point = Writer.geometry(xy: [24.9, 60.1])
        w.features = [
            (point, Writer.properties(all)),
            (point, nil),                                        // no properties at all
            (nil, Writer.properties([(15, Writer.text("x3"))])), // no geometry
            (Writer.geometry(xy: [.nan, .nan]), Writer.properties([(15, Writer.text("x4")), (11, Writer.text("cut\u{0}off"))])),
            (point, Writer.properties([(13, Writer.text("2020-01-02")), (11, Writer.text("")), (15, Writer.text("x5"))])),
            (point, Writer.properties([(13, Writer.text("2020-01-02T03:04:05-02:30"))])),
        ]
        w.featuresCount = UInt64(w.features.count)
        let path = try write(w, "types.fgb")
        for group in stride(from: 0, to: names.count, by: 7) {
            var fields: [String: String] = [:]
            for (k, field) in ["house_number", "street_name", "unit", "formatted", "locality", "region", "postal_code"].enumerated()
            where group + k < names.count {
                fields[field] = names[group + k]
            }
            let table = try assertSameAsGDAL(path, role: .addresses, mapping: FieldMapping(address: fields))
            XCTAssertEqual(table.records.map { $0.values[0] }, ["x1", nil, "x3", "x4", "x5", nil])
            XCTAssertNil(table.records[2].geometry)
            XCTAssertEqual(table.records[3].geometry, .empty("Point"))
        }
    }

    func testUnknownHeaderTypeZCoordinatesStreamedFileAndCRSFromWKT() throws {
        let square: [Double] = [0, 0, 1, 0, 1, 1, 0, 1, 0, 0]
        var w = Writer(geometryType: 0)
        w.hasZ = true
        w.name = nil
        w.columns = [Writer.Column(name: "id", type: 11)]
        w.crs = [4: .string(#"PROJCS["ETRS89 / TM35FIN(E,N)",GEOGCS["ETRS89",DATUM["European_Terrestrial_Reference_System_1989",SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",27],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1],AUTHORITY["EPSG","3067"]]"#)]
        let z5 = [Double](repeating: 7, count: 5)
        let polygon = Writer.geometry(type: 3, xy: square + square.map { $0 * 0.5 + 0.25 }, ends: [5, 10], z: z5 + z5)
        w.features = [
            (polygon, Writer.properties([(0, Writer.text("poly"))])),
            (Writer.geometry(type: 6, parts: [Writer.geometry(xy: square, z: z5), Writer.geometry(xy: square.map { $0 + 5 }, z: z5)]), nil),
            (Writer.geometry(type: 6, parts: []), nil),
            (Writer.geometry(type: 4, xy: [1, 2, .nan, .nan, 3, 4], z: [0, 0, 0]), nil),
            (Writer.geometry(type: 1, xy: [500_000, 6_700_000], z: [1]), nil),
        ]
        w.featuresCount = nil  // streamed: read to the end
        let table = try assertSameAsGDAL(try write(w, "mixed.fgb"), role: .buildings)
        XCTAssertEqual(table.records.count, 5)
        XCTAssertEqual(CRSInfo.authorityName(table.crsDefinition ?? ""), "EPSG:3067")
        XCTAssertEqual(table.records[2].geometry, .empty("MultiPolygon"))
        XCTAssertEqual(table.records[3].geometry, .multiPoint([Point2(x: 1, y: 2), Point2(x: 3, y: 4)]))

        w.crs = nil
        w.featuresCount = 5
        XCTAssertNil(try assertSameAsGDAL(try write(w, "nocrs.fgb"), role: .buildings).crsDefinition)
    }

    /// What GDAL reads its own way goes to GDAL: the records are then GDAL's. A consumer sees
    /// them once: a file that may need GDAL (per-feature geometry types, dates in a wanted column)
    /// passes nothing on until it has been read to the end.
    func testUnusualContentIsHandedToGDAL() throws {
        let square: [Double] = [0, 0, 1, 0, 1, 1, 0, 1, 0, 0]
        let cases: [(what: String, headerType: UInt8, geometry: [Int: Writer.Field], date: String?)] = [
            ("a date GDAL parses leniently", 3, Writer.geometry(xy: square), "2021/3/4 5:06"),
            ("a curve type in the header", 8, Writer.geometry(xy: square), nil),
            ("a curve among per-feature types", 0, Writer.geometry(type: 8, xy: square), nil),
            ("a curve in a collection", 7, Writer.geometry(parts: [Writer.geometry(type: 8, xy: square)]), nil),
        ]
        let mapping = FieldMapping(building: ["height": "when"])
        for c in cases {
            var w = Writer(geometryType: c.headerType)
            w.columns = [Writer.Column(name: "id", type: 11), Writer.Column(name: "when", type: 13)]
            var odd: [(UInt16, [UInt8])] = [(0, Writer.text("odd"))]
            if let date = c.date { odd.append((1, Writer.text(date))) }
            let first = c.headerType == 7 ? Writer.geometry(parts: [Writer.geometry(type: 3, xy: square)]) : Writer.geometry(type: 3, xy: square)
            w.features = [(first, Writer.properties([(0, Writer.text("ok"))])), (c.geometry, Writer.properties(odd))]
            w.featuresCount = 2
            let spec = SourceSpec(location: try write(w, "odd.fgb"))
            XCTAssertThrowsError(try FlatGeobufSourceReader.readOwn(spec, role: .buildings, mapping: mapping), c.what) { error in
                guard case .needsGDAL = error as? FlatGeobufProblem else { return XCTFail("\(c.what): \(error)") }
            }
            let gdal = try GDALSourceReader.read(spec, role: .buildings, mapping: mapping)
            var consumed: [SourceTable.Record] = []
            let sink = RecordSink(batchSize: 1) { consumed.append(contentsOf: $0) }
            let ours = try FlatGeobufSourceReader.read(spec, role: .buildings, mapping: mapping, sink: sink)
            XCTAssertEqual(ours.reader, "GDAL/FlatGeobuf", c.what)
            XCTAssertEqual(ours.recordCount, 2, c.what)
            XCTAssertEqual(consumed.map(\.ordinal), [1, 2], c.what)
            XCTAssertEqual(consumed.map(\.values), gdal.records.map(\.values), c.what)
            XCTAssertEqual(consumed.map(\.geometry), gdal.records.map(\.geometry), c.what)
            XCTAssertEqual(consumed.map(\.geometryError), gdal.records.map(\.geometryError), c.what)
        }
    }

    /// Geometry or properties GDAL refuses to read (it stops the run) stop ours too, with one line.
    func testContentGDALRefusesIsAnError() throws {
        let square: [Double] = [0, 0, 1, 0, 1, 1, 0, 1, 0, 0]
        let id = Writer.properties([(0, Writer.text("x"))])
        let cases: [(what: String, headerType: UInt8, hasZ: Bool, geometry: [Int: Writer.Field], properties: [UInt8])] = [
            ("ring ends past the coordinates", 3, false, Writer.geometry(xy: square, ends: [5, 9]), id),
            ("ring ends out of order", 3, false, Writer.geometry(xy: square + square, ends: [5, 3]), id),
            ("rings all empty", 3, false, Writer.geometry(xy: square, ends: [0, 0]), id),
            ("Z values missing", 3, true, Writer.geometry(xy: square, z: [1, 1]), id),
            ("a point without coordinates", 1, false, Writer.geometry(xy: []), id),
            ("a multipolygon without parts", 6, false, Writer.geometry(xy: square), id),
            ("a column given twice", 3, false, Writer.geometry(xy: square), Writer.properties([(0, Writer.text("a")), (0, Writer.text("b"))])),
            ("a date-time of 40 bytes", 3, false, Writer.geometry(xy: square),
             Writer.properties([(1, Writer.text(String(repeating: "2020-01-01T00:00:00Z", count: 2)))])),
        ]
        for c in cases {
            var w = Writer(geometryType: c.headerType)
            w.hasZ = c.hasZ
            w.columns = [Writer.Column(name: "id", type: 11), Writer.Column(name: "when", type: 13)]
            w.features = [(c.geometry, c.properties)]
            w.featuresCount = 1
            let spec = SourceSpec(location: try write(w, "refused.fgb"))
            XCTAssertThrowsError(try GDALSourceReader.read(spec, role: .buildings, mapping: FieldMapping()), "GDAL reads \(c.what)")
            XCTAssertThrowsError(try FlatGeobufSourceReader.read(spec, role: .buildings, mapping: FieldMapping()), c.what) { error in
                XCTAssertTrue("\(error)".contains("is not a readable FlatGeobuf file: feature 1: "), "\(c.what): \(error)")
                XCTAssertFalse("\(error)".contains("\n"))
            }
        }
    }

    /// With a consumer (a run's ingest), records arrive in file order batch by batch, the same as collected.
    func testRecordsReachAConsumerInOrder() throws {
        let path = try fgb("a.fgb", from: TestPaths.helsinkiAddresses)
        let collected = try FlatGeobufSourceReader.readOwn(SourceSpec(location: path), role: .addresses, mapping: FieldMapping(), chunkSize: 4096)
        var batches = 0
        var consumed: [SourceTable.Record] = []
        let sink = RecordSink(batchSize: 100) { batch in
            batches += 1
            consumed.append(contentsOf: batch)
        }
        let table = try FlatGeobufSourceReader.readOwn(SourceSpec(location: path), role: .addresses, mapping: FieldMapping(),
                                                       sink: sink, chunkSize: 4096)
        XCTAssertTrue(table.records.isEmpty)
        XCTAssertEqual(table.recordCount, 1377)
        XCTAssertGreaterThan(batches, 10, "4 KB chunks: many batches")
        XCTAssertEqual(consumed.map(\.ordinal), Array(1...1377))
        XCTAssertEqual(consumed.map(\.values), collected.records.map(\.values))
        XCTAssertEqual(consumed.map(\.geometry), collected.records.map(\.geometry))
    }

    // MARK: whole runs

    func run(_ buildings: String, _ addresses: String, out: URL) throws -> LinkRun {
        var options = RunOptions(buildings: SourceSpec(location: buildings), addresses: SourceSpec(location: addresses), output: out.path)
        options.campaignID = "0c5c3f5e-3b0a-5d0e-8f57-6b2a1d4c9e10"
        let run = try LinkPipeline(options: options).run()
        try RunWriter.write(run)
        return run
    }

    /// The same files read by GDAL (through hard links whose names GDAL alone opens) and by the
    /// project's reader give byte-identical outputs; report.json differs only in the reader and path.
    func assertSameRunAsGDAL(_ buildings: String, _ addresses: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = TestPaths.temporaryDirectory(self)
        let gdalB = dir.appendingPathComponent("buildings.gdal").path, gdalA = dir.appendingPathComponent("addresses.gdal").path
        try FileManager.default.linkItem(atPath: buildings, toPath: gdalB)
        try FileManager.default.linkItem(atPath: addresses, toPath: gdalA)
        let ours = try run(buildings, addresses, out: dir.appendingPathComponent("ours"))
        let gdal = try run(gdalB, gdalA, out: dir.appendingPathComponent("gdal"))
        XCTAssertEqual(ours.report.inputs["buildings"]?.reader, "flyr-link FlatGeobuf reader", file: file, line: line)
        XCTAssertEqual(ours.report.inputs["addresses"]?.reader, "flyr-link FlatGeobuf reader", file: file, line: line)
        XCTAssertEqual(gdal.report.inputs["buildings"]?.reader, "GDAL/FlatGeobuf", file: file, line: line)
        XCTAssertGreaterThan(ours.links.count, 0, file: file, line: line)
        let a = try OutputFiles.comparableContents(dir.appendingPathComponent("ours"))
        let b = try OutputFiles.comparableContents(dir.appendingPathComponent("gdal"))
        XCTAssertEqual(Set(a.keys), Set(b.keys), file: file, line: line)
        // (report.html names the readers, as report.json does.)
        for name in a.keys.sorted() where name != "report.json" && name != "report.html" {
            XCTAssertEqual(a[name], b[name], "\(name) differs", file: file, line: line)
        }
        XCTAssertEqual(try reportWithoutReaders(a["report.json"]), try reportWithoutReaders(b["report.json"]), file: file, line: line)
    }

    func reportWithoutReaders(_ data: Data?) throws -> NSDictionary {
        var report = try XCTUnwrap(JSONSerialization.jsonObject(with: try XCTUnwrap(data)) as? [String: Any])
        var inputs = try XCTUnwrap(report["inputs"] as? [String: Any])
        for (role, value) in inputs {
            guard var input = value as? [String: Any] else { continue }
            XCTAssertNotNil(input["reader"])
            input["reader"] = nil
            input["source"] = nil
            inputs[role] = input
        }
        report["inputs"] = inputs
        return report as NSDictionary
    }

    func testRunOutputsIdenticalToReadingThroughGDAL() throws {
        try assertSameRunAsGDAL(try fgb("b.fgb", from: TestPaths.helsinkiBuildings), try fgb("a.fgb", from: TestPaths.helsinkiAddresses))
        try assertSameRunAsGDAL(try fgb("b.fgb", from: TestPaths.helsinkiBuildings, ["-t_srs", "EPSG:3067"]),
                                try fgb("a.fgb", from: TestPaths.helsinkiAddresses, ["-t_srs", "EPSG:3067", "-lco", "SPATIAL_INDEX=NO"]))
        let city = TestPaths.temporaryDirectory(self).appendingPathComponent("city")
        try generateCity(config: CityConfig(buildings: 1500, seed: 5), to: city)
        try assertSameRunAsGDAL(try fgb("b.fgb", from: city.appendingPathComponent("buildings.geojson").path),
                                try fgb("a.fgb", from: city.appendingPathComponent("addresses.geojson").path))
    }

    // MARK: damaged files

    func testTruncatedFilesGiveOneClearError() throws {
        let good = try fgb("b.fgb", from: TestPaths.helsinkiBuildings)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        let dir = TestPaths.temporaryDirectory(self)
        let headerEnd = 12 + Int(bytes[8]) + Int(bytes[9]) << 8 + Int(bytes[10]) << 16
        // Inside the header, inside the spatial index, inside the last feature.
        for (cut, expected) in [(headerEnd - 10, "file ends inside the header"), (headerEnd + 100, "file ends inside the spatial index"),
                                (bytes.count - 50, "is cut short")] {
            let path = dir.appendingPathComponent("cut\(cut).fgb").path
            try bytes.prefix(cut).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try FlatGeobufSourceReader.read(SourceSpec(location: path), role: .buildings, mapping: FieldMapping())) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("buildings: \(path) is not a readable FlatGeobuf file: "), message)
                XCTAssertTrue(message.contains(expected), message)
                XCTAssertFalse(message.contains("\n"), message)
            }
            let r = try ProcessRunner.flyrLink(["run", "--buildings", path, "--addresses", TestPaths.helsinkiAddresses,
                                                "--out", dir.appendingPathComponent("out").path])
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("not a readable FlatGeobuf file"), r.stderr)
        }
    }

    /// Damage anywhere in the features: the reader returns or throws, never crashes or reads
    /// out of bounds (run under the address sanitizer to be sure of the latter). Both with a
    /// feature count in the header and without one (a streamed file).
    func testDamagedBytesNeverCrash() throws {
        try assertDamageIsHandled(try fgb("a.fgb", from: TestPaths.helsinkiAddresses, ["-lco", "SPATIAL_INDEX=NO"]))
        var streamed = Writer(geometryType: 3)
        streamed.columns = [Writer.Column(name: "id", type: 11), Writer.Column(name: "height", type: 10)]
        streamed.features = (0..<400).map { i in
            let x = Double(i)
            return (Writer.geometry(xy: [x, 0, x + 1, 0, x + 1, 1, x, 1, x, 0]),
                    Writer.properties([(0, Writer.text("b\(i)")), (1, Writer.le(x / 4))]))
        }
        try assertDamageIsHandled(try write(streamed, "streamed.fgb"))
    }

    /// Found by the flatgeobuf fuzz target (a leak, reported by LeakSanitizer): a header CRS with
    /// broken WKT and no EPSG code is asked of GDAL, whose export fails but still allocates its
    /// result, which was not freed. The header gives no CRS; the file (its first feature cut short)
    /// is one line's error.
    func testHeaderCRSWithBrokenWKTGivesNoCRS() throws {
        let path = TestPaths.fixture("fuzz/flatgeobuf-bad-crs-wkt.fgb")
        XCTAssertNil(try GDALVectorDataset(path: path).layer(named: nil).crsWKT)
        for role in [LayerRole.buildings, .addresses] {
            XCTAssertThrowsError(try FlatGeobufSourceReader.read(SourceSpec(location: path), role: role, mapping: FieldMapping())) { error in
                let message = (error as? InputError)?.message ?? ""
                XCTAssertTrue(message.contains("is cut short"), message)
                XCTAssertFalse(message.contains("\n"))
            }
        }
    }

    func assertDamageIsHandled(_ good: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        let path = TestPaths.temporaryDirectory(self).appendingPathComponent("damaged.fgb").path
        XCTAssertEqual(try FlatGeobufSourceReader.readOwn(SourceSpec(location: good), role: .addresses, mapping: FieldMapping()).records.count,
                       try GDALSourceReader.read(SourceSpec(location: good), role: .addresses, mapping: FieldMapping()).records.count,
                       file: file, line: line)
        var generator = SeededGenerator(seed: 42)
        var outcomes = (read: 0, corrupt: 0, gdal: 0)
        for _ in 0..<300 {
            var damaged = bytes
            let at = Int(generator.next() % UInt64(bytes.count - 4))
            for k in 0..<Int(generator.next() % 4 + 1) { damaged[at + k] = UInt8(truncatingIfNeeded: generator.next()) }
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            do throws(FlatGeobufProblem) {
                _ = try FlatGeobufSourceReader.readOwn(SourceSpec(location: path), role: .addresses, mapping: FieldMapping())
                outcomes.read += 1
            } catch {
                switch error {
                case .corrupt(let why): XCTAssertFalse(why.isEmpty); outcomes.corrupt += 1
                case .needsGDAL: outcomes.gdal += 1
                }
            }
        }
        XCTAssertGreaterThan(outcomes.corrupt, 0, "\(outcomes)", file: file, line: line)
        XCTAssertGreaterThan(outcomes.read, 0, "\(outcomes)", file: file, line: line)
    }

    // MARK: numbers as GDAL writes them

    func testRealTextMatchesPrintf() {
        var generator = SeededGenerator(seed: 7)
        var values: [Double] = [0.1, 0.2 + 0.1, 1e-5, 1e-4, 0.0001234, 123456789012345, 1234567890123456, 1e15, 1e16, 1e21, 1e100,
                                1e-300, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 2.9, 100, 12.5, -3.75, 9.999999999999999, 0.5e-4, 99999.99999]
        for _ in 0..<20000 {
            values.append(Double(bitPattern: generator.next()))                                  // any bit pattern
            values.append(Double(Int64(bitPattern: generator.next()) % 100_000) / 100)          // typical data
            values.append(Double(Int64(bitPattern: generator.next()) % 10_000_000) * 1e-9)
        }
        var mismatches: [String] = []
        for v in values where v.isFinite && v != 0 {
            let expected = OGRFieldText.cFormat("%.15g", v)
            if OGRFieldText.real(v) != expected { mismatches.append("\(v): \(OGRFieldText.real(v)) vs \(expected)") }
        }
        XCTAssertEqual(mismatches, [])
        XCTAssertEqual(OGRFieldText.real(-0.0), "-0")
        XCTAssertEqual(OGRFieldText.real(.infinity), "inf")
    }
}
