import Foundation

/// An output directory as flyr-link wrote it, read back for `flyr-link report`: report.json,
/// rejects.csv, and addresses/buildings/units GeoJSON when present (gzipped in a snapshot version),
/// else (a `--only links` output) links.csv. The values are the files' own, so the page is the one
/// the run drew.
struct OutputDirectoryContents: ReportSource {
    let report: RunReport
    let frame: LocalMetricFrame
    let rejectsByReason: [String: Int]
    let hasGeometry: Bool

    private var addressIDs: [String] = []
    private var houseNumbers: [String?] = []
    private var addressPoints: [Point2] = []
    private var outcomes: [AddressOutcome] = []
    private var buildingIDs: [String] = []
    private var buildingBoxes: [BBox] = []
    private var unitBuildings: [Int] = []
    /// The buildings' and units' footprints are read again from their files when the page asks
    /// for one (those its spots show): each feature's geometry's bytes (`GeoJSONLayer`). Held as
    /// footprints, every building's and unit's were about 40% of what a redraw held at 1M.
    private var buildingLayer: GeoJSONLayer?
    private var buildingGeometry: [GeoJSONLayer.Span] = []
    private var unitLayer: GeoJSONLayer?
    private var unitGeometry: [GeoJSONLayer.Span] = []

    /// `houseNumbers`: by address id, those a links-only output lacks (see `ReportFile.redraw`).
    init(directory: String, houseNumbers known: [String: String?] = [:]) throws {
        func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }
        guard let json = FileManager.default.contents(atPath: path("report.json")) else {
            throw InputError("\(directory) is not a flyr-link output directory: no report.json")
        }
        do {
            report = try RunWriter.reportDecoder().decode(RunReport.self, from: json)
        } catch {
            throw InputError("\(path("report.json")) cannot be read as a flyr-link report: \(error)")
        }
        frame = try Self.frame(report.metricFrame)
        var rejects: [String: Int] = [:]
        if let data = FileManager.default.contents(atPath: path("rejects.csv")) {
            let rows = CSVRows.parse(String(decoding: data, as: UTF8.self))
            if let header = rows.first, let l = header.firstIndex(of: "layer"), let r = header.firstIndex(of: "reason") {
                for row in rows.dropFirst() where row.count > max(l, r) { rejects["\(row[l]): \(row[r])", default: 0] += 1 }
            }
        }
        rejectsByReason = rejects
        hasGeometry = Self.geoJSONExists(path("addresses.geojson"))
        if hasGeometry {
            try readGeometry(path)
        } else {
            try readLinks(path("links.csv"), houseNumbers: known)
        }
    }

    /// The frame report.json names (`+proj=tmerc +lat_0=… +lon_0=…`).
    static func frame(_ proj: String) throws(InputError) -> LocalMetricFrame {
        func value(_ key: String) -> Double? {
            proj.split(separator: " ").first { $0.hasPrefix("+\(key)=") }.flatMap { Double($0.dropFirst(key.count + 2)) }
        }
        guard proj.contains("+proj=tmerc"), let lat = value("lat_0"), let lon = value("lon_0") else {
            throw InputError("report.json names a metric frame flyr-link does not write: \(proj)")
        }
        return LocalMetricFrame(center: Point2(x: lon, y: lat))
    }

    private mutating func readGeometry(_ path: (String) -> String) throws {
        var buildingIndex: [String: Int] = [:]
        let buildings = try GeoJSONLayer(path("buildings.geojson"))
        try Self.features(buildings, keys: ["id"]) { geometry, values, span in
            let id = values[0] ?? ""
            let box: BBox = if case .polygons(let f)? = geometry { f.bbox } else { .empty }
            if buildingIndex[id] == nil { buildingIndex[id] = buildingIDs.count }
            buildingIDs.append(id)
            buildingGeometry.append(span)
            buildingBoxes.append(box)
        }
        buildingLayer = buildings
        try Self.features(try GeoJSONLayer(path("addresses.geojson")), keys: ["id", "house_number", "building_id", "match_method", "confidence", "distance_m"]) { geometry, v, _ in
            addressIDs.append(v[0] ?? "")
            houseNumbers.append(v[1])
            let point: Point2 = if case .point(let p)? = geometry { p } else { Point2(x: .nan, y: .nan) }
            addressPoints.append(point)
            if let b = v[2].flatMap({ buildingIndex[$0] }) {
                outcomes.append(AddressOutcome(building: b, method: v[3].flatMap(MatchMethod.init(rawValue:)),
                                               confidence: v[4].flatMap(Double.init) ?? 0, distance: v[5].flatMap(Double.init) ?? 0))
            } else {
                outcomes.append(.unlinked)
            }
        }
        if Self.geoJSONExists(path("units.geojson")) {
            let units = try GeoJSONLayer(path("units.geojson"))
            try Self.features(units, keys: ["building_id"]) { geometry, v, span in
                guard let b = v[0].flatMap({ buildingIndex[$0] }), case .polygons? = geometry else { return }
                unitBuildings.append(b)
                unitGeometry.append(span)
            }
            unitLayer = units
        }
    }

    /// A links-only output: the linked addresses, in links.csv's order, and the buildings they name.
    private mutating func readLinks(_ path: String, houseNumbers known: [String: String?]) throws {
        // Mapped, not copied (a 10M run's links.csv is 1.4 GB), and read row by row, only the
        // fields read decoded.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { throw InputError("cannot read \(path)") }
        var columns: (a: Int, b: Int, m: Int, c: Int, d: Int)?
        var buildingIndex: [String: Int] = [:]
        try data.withUnsafeBytes { bytes in
            try CSVRows.forEachRow(bytes) { row in
                guard let (a, b, m, c, d) = columns else {
                    let header = (0..<row.count).map { row[$0] }
                    guard let a = header.firstIndex(of: "address_id"), let b = header.firstIndex(of: "building_id"),
                          let m = header.firstIndex(of: "match_method"), let c = header.firstIndex(of: "confidence"),
                          let d = header.firstIndex(of: "distance_m") else { throw InputError("\(path) is not a flyr-link links.csv") }
                    columns = (a, b, m, c, d)
                    return
                }
                guard row.count > max(a, b, m, c, d) else { return }
                let buildingID = row[b], addressID = row[a]
                let building = buildingIndex[buildingID] ?? {
                    buildingIndex[buildingID] = buildingIDs.count
                    buildingIDs.append(buildingID)
                    buildingBoxes.append(.empty)
                    return buildingIDs.count - 1
                }()
                addressIDs.append(addressID)
                houseNumbers.append(known[addressID] ?? nil)
                outcomes.append(AddressOutcome(building: building, method: MatchMethod(rawValue: row[m]),
                                               confidence: Double(row[c]) ?? 0, distance: Double(row[d]) ?? 0))
            }
        }
        guard columns != nil else { throw InputError("\(path) is not a flyr-link links.csv") }
    }

    /// The GeoJSON file, or its gzipped copy (snapshot versions keep their layers as `.geojson.gz`).
    static func geoJSONExists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) || FileManager.default.fileExists(atPath: path + ".gz")
    }

    /// Each feature of a GeoJSON FeatureCollection: its geometry, the properties named by `keys`
    /// (as text; nil when null or absent), and where its geometry's bytes are.
    static func features(_ layer: GeoJSONLayer, keys: [String], _ body: (SourceGeometry?, [String?], GeoJSONLayer.Span) -> Void) throws {
        try layer.withBytes { bytes in try scan(bytes, mapped: layer.isMapped, path: layer.path, keys: keys, body) }
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer, mapped: Bool, path: String, keys: [String],
                             _ body: (SourceGeometry?, [String?], GeoJSONLayer.Span) -> Void) throws {
        var s = GeoJSONScanner(bytes, mapped: mapped)
        do {
            guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { return }
            repeat {
                let key = try s.string()
                try s.expect(UInt8(ascii: ":"))
                guard key == "features" else { try s.skipValue(); continue }
                guard try s.open(UInt8(ascii: "["), UInt8(ascii: "]")) else { continue }
                repeat {
                    var geometry: SourceGeometry?
                    var span = GeoJSONLayer.Span(start: 0, end: 0)
                    var values = [String?](repeating: nil, count: keys.count)
                    guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { continue }
                    repeat {
                        let member = try s.string()
                        try s.expect(UInt8(ascii: ":"))
                        switch member {
                        case "geometry":
                            s.skipSpace()
                            let start = s.i
                            geometry = try GeoJSONGeometry.read(&s)
                            span = GeoJSONLayer.Span(start: Int64(start), end: Int64(s.i))
                        case "properties":
                            if try s.peek() == UInt8(ascii: "n") { try s.literal("null"); break }
                            guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { break }
                            repeat {
                                let name = try s.string()
                                try s.expect(UInt8(ascii: ":"))
                                if let k = keys.firstIndex(of: name) { values[k] = try s.scalarText() } else { try s.skipValue() }
                            } while try s.more(closer: UInt8(ascii: "}"))
                        default: try s.skipValue()
                        }
                    } while try s.more(closer: UInt8(ascii: "}"))
                    body(geometry, values, span)
                    s.releaseConsumed()
                } while try s.more(closer: UInt8(ascii: "]"))
            } while try s.more(closer: UInt8(ascii: "}"))
        } catch {
            throw InputError("\(path): \(error)")
        }
    }

    var addressCount: Int { addressIDs.count }
    func addressID(_ a: Int) -> String { addressIDs[a] }
    func houseNumber(_ a: Int) -> String? { houseNumbers[a] }
    func addressLonLat(_ a: Int) -> Point2? { a < addressPoints.count ? addressPoints[a] : nil }
    func outcome(ofAddress a: Int) -> AddressOutcome { outcomes[a] }
    var buildingCount: Int { buildingIDs.count }
    func buildingID(_ b: Int) -> String { buildingIDs[b] }
    func buildingLonLatBox(_ b: Int) -> BBox { buildingBoxes[b] }
    func buildingFootprint(_ b: Int) -> Footprint {
        guard let buildingLayer, b < buildingGeometry.count else { return .empty }
        return buildingLayer.footprint(at: buildingGeometry[b])
    }
    var unitCount: Int { unitGeometry.count }
    func unitBuilding(_ u: Int) -> Int { unitBuildings[u] }
    func unitFootprint(_ u: Int) -> Footprint { unitLayer?.footprint(at: unitGeometry[u]) ?? .empty }
}

/// A GeoJSON layer of an output directory, kept to read a feature's geometry again
/// (`footprint(at:)`): the file mapped (its pages handed back as a scan passes them, read again
/// from the file when asked), or its gzipped copy (a snapshot version's) unpacked.
final class GeoJSONLayer {
    /// Where a feature's geometry is: its bytes' offsets in the layer.
    struct Span {
        var start: Int64
        var end: Int64
    }

    let path: String
    private let mapped: MappedFile?
    private let unpacked: [UInt8]
    var isMapped: Bool { mapped != nil }

    /// `path`, else `path.gz`.
    init(_ path: String) throws {
        if FileManager.default.fileExists(atPath: path) {
            (self.path, mapped, unpacked) = (path, try MappedFile(path: path), [])
        } else {
            (self.path, mapped, unpacked) = (path + ".gz", nil, try Gzip.decompressFile(path + ".gz"))
        }
    }

    /// The layer's bytes, for the length of `body`.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        if let mapped { return try body(mapped.bytes) }
        return try unpacked.withUnsafeBytes(body)
    }

    /// The polygons whose geometry is at `span` (read once already: it reads again).
    func footprint(at span: Span) -> Footprint {
        guard span.end > span.start else { return .empty }
        return withBytes { bytes in
            var s = GeoJSONScanner(UnsafeRawBufferPointer(rebasing: bytes[Int(span.start)..<Int(span.end)]))
            guard case .polygons(let f)?? = try? GeoJSONGeometry.read(&s) else { return .empty }
            return f
        }
    }
}
