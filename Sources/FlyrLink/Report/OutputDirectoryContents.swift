import Foundation

/// An output directory as flyr-link wrote it, read back for `flyr-link report`: report.json,
/// rejects.csv, and addresses/buildings/units GeoJSON when present (gzipped in a snapshot version),
/// else (a `--only links` output) links.csv. The values are the files' own, so the page is the one
/// the run drew. Each pass of the page reads a file again, a feature at a time (the file mapped,
/// its pages handed back as the scan passes them): nothing is kept of a row the page does not show.
/// Each file it reads must be whole: present, its CSV header and fields or its JSON as written,
/// and as many rows or features as report.json counts (`OutputCSVFile`); links.csv is checked so
/// even when the page is drawn from the GeoJSON. Beyond that the directory is taken as flyr-link
/// writes it, not checked against itself: building ids unique, an address's `building_id` one of
/// the buildings, `address_count` its addresses, and links.csv holding each building's links together.
struct OutputDirectoryContents: ReportSource {
    let report: RunReport
    let frame: LocalMetricFrame
    let rejectsByReason: [String: Int]
    let hasGeometry: Bool
    var holdsRows: Bool { false }
    private let directory: String
    private let houseNumbers: [String: String?]

    /// `houseNumbers`: by address id, those a links-only output lacks (see `ReportFile.redraw`).
    /// `checkingLinks`: false, links.csv is read only when the page is drawn from it (a merge's
    /// own, just written from parts whose digests held, is not read a second time).
    init(directory: String, houseNumbers known: [String: String?] = [:], checkingLinks: Bool = true) throws {
        self.directory = directory
        houseNumbers = known
        func path(_ name: String) -> String { Self.path(name, in: directory) }
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
        try OutputCSVFile.forEachRow(path("rejects.csv"), header: RunWriter.rejectsHeader,
                                     rows: report.counts.rejected + report.counts.buildingsRejected) { row in
            rejects["\(row[0]): \(row[3])", default: 0] += 1
        }
        rejectsByReason = rejects
        // The GeoJSON layers must be there in a whole run's directory of GeoJSON, and the page is
        // drawn from them; a FlatGeobuf or GeoParquet one has them only while it is staged.
        let whole = report.options["only"] != RunOptions.OutputSelection.links.rawValue
        hasGeometry = whole && (report.options["format"] == OutputFormat.dir.rawValue || Self.geoJSONExists(path("addresses.geojson")))
        for layer in hasGeometry ? ["addresses.geojson", "buildings.geojson", "units.geojson"] : [] where !Self.geoJSONExists(path(layer)) {
            throw DamagedOutput.error(path(layer), "is missing")
        }
        if hasGeometry, checkingLinks {
            try OutputCSVFile.forEachRow(path("links.csv"), header: RunWriter.linksHeader, rows: report.counts.linked) { _ in }
        }
    }

    private func path(_ name: String) -> String { Self.path(name, in: directory) }
    private static func path(_ name: String, in directory: String) -> String { (directory as NSString).appendingPathComponent(name) }

    func forEachAddress(_ body: (ReportAddress) throws -> Void) throws {
        var index = 0
        guard hasGeometry else {
            try linkRows { address, building, method, confidence, distance in
                try body(ReportAddress(index: index, id: address, houseNumber: houseNumbers[address] ?? nil, lonLat: nil,
                                       outcome: AddressOutcome(building: building, method: method, confidence: confidence, distance: distance)))
                index += 1
            }
            return
        }
        let keys = ["id", "house_number", "building_id", "match_method", "confidence", "distance_m"]
        try Self.features(try GeoJSONLayer(path("addresses.geojson")), keys: keys, count: report.counts.addresses) { geometry, v in
            let point: Point2 = if case .point(let p)? = geometry { p } else { Point2(x: .nan, y: .nan) }
            var outcome = AddressOutcome.unlinked
            if let building = v[2] {
                outcome = AddressOutcome(building: building, method: v[3].flatMap(MatchMethod.init(rawValue:)),
                                         confidence: v[4].flatMap(Double.init) ?? 0, distance: v[5].flatMap(Double.init) ?? 0)
            }
            try body(ReportAddress(index: index, id: v[0] ?? "", houseNumber: v[1], lonLat: point, outcome: outcome))
            index += 1
        }
    }

    func forEachBuilding(_ body: (ReportBuilding, () -> Footprint) throws -> Void) throws {
        var index = 0
        guard hasGeometry else {
            // A links-only output's buildings are those its links name: links.csv holds each
            // building's links together, in the run's order of buildings.
            var current: ReportBuilding?
            try linkRows { _, building, _, _, _ in
                if current?.id == building { current!.addressCount += 1; return }
                if let done = current { try body(done) { .empty } }
                current = ReportBuilding(index: index, id: building, lonLatBox: .empty, addressCount: 1)
                index += 1
            }
            if let done = current { try body(done) { .empty } }
            return
        }
        try Self.features(try GeoJSONLayer(path("buildings.geojson")), keys: ["id", "address_count"], count: report.counts.buildings) { geometry, v in
            let footprint: Footprint = if case .polygons(let f)? = geometry { f } else { .empty }
            try body(ReportBuilding(index: index, id: v[0] ?? "", lonLatBox: footprint.bbox, addressCount: v[1].flatMap { Int($0) } ?? 0)) { footprint }
            index += 1
        }
    }

    func forEachUnit(_ body: (_ building: String, () -> Footprint) throws -> Void) throws {
        guard hasGeometry else { return }
        try Self.features(try GeoJSONLayer(path("units.geojson")), keys: ["building_id"], count: report.counts.units) { geometry, v in
            guard let building = v[0], case .polygons(let f)? = geometry else { return }
            try body(building) { f }
        }
    }

    /// links.csv's rows in order (address, building, method, confidence, distance): mapped, not copied,
    /// pages handed back as rows pass, only the fields read decoded.
    private func linkRows(_ body: (_ address: String, _ building: String, MatchMethod?, Double, Double) throws -> Void) throws {
        let header = RunWriter.linksHeader
        let (a, b, m, c, d) = (header.firstIndex(of: "address_id")!, header.firstIndex(of: "building_id")!, header.firstIndex(of: "match_method")!,
                               header.firstIndex(of: "confidence")!, header.firstIndex(of: "distance_m")!)
        try OutputCSVFile.forEachRow(path("links.csv"), header: header, rows: report.counts.linked) { row in
            try body(row[a], row[b], MatchMethod(rawValue: row[m]), Double(row[c]) ?? 0, Double(row[d]) ?? 0)
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

    /// The GeoJSON file, or its gzipped copy (snapshot versions keep their layers as `.geojson.gz`).
    static func geoJSONExists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) || FileManager.default.fileExists(atPath: path + ".gz")
    }

    /// Each feature of a GeoJSON FeatureCollection: its geometry, and the properties named by
    /// `keys` (as text; nil when null or absent). The collection must hold `count` features.
    static func features(_ layer: GeoJSONLayer, keys: [String], count: Int, _ body: (SourceGeometry?, [String?]) throws -> Void) throws {
        var found = 0
        try layer.withBytes { bytes in try scan(bytes, mapped: layer.isMapped, path: layer.path, keys: keys) { found += 1; try body($0, $1) } }
        guard found == count else { throw DamagedOutput.error(layer.path, "holds \(found) features, report.json counts \(count)") }
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer, mapped: Bool, path: String, keys: [String],
                             _ body: (SourceGeometry?, [String?]) throws -> Void) throws {
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
                    var values = [String?](repeating: nil, count: keys.count)
                    guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { continue }
                    repeat {
                        let member = try s.string()
                        try s.expect(UInt8(ascii: ":"))
                        switch member {
                        case "geometry":
                            geometry = try GeoJSONGeometry.read(&s)
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
                    do { try body(geometry, values) } catch { throw FromBody(error: error) }
                    s.releaseConsumed()
                } while try s.more(closer: UInt8(ascii: "]"))
            } while try s.more(closer: UInt8(ascii: "}"))
            s.skipSpace()
            guard s.atEnd else { throw s.fail("more after the collection's end") }
        } catch let passed as FromBody {
            throw passed.error
        } catch {
            throw DamagedOutput.error(path, "is not valid JSON (\(error))")
        }
    }

    /// An error of a scan's caller, not of the file.
    private struct FromBody: Error { let error: Error }
}

/// A GeoJSON layer of an output directory, for one pass: the file mapped (its pages handed back
/// as a scan passes them), or its gzipped copy (a snapshot version's) unpacked.
final class GeoJSONLayer {
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
}
