import Foundation

/// A streaming reader for GeoJSON FeatureCollections and text sequences (GDAL's driver reads a few
/// MB/s): one scan of the mapped file, giving GDAL's records (tested); the rest goes to GDAL.
enum GeoJSONSourceReader {
    /// `.json` goes to GDAL: it may be Esri JSON or TopoJSON, which GDAL also reads.
    static func handles(_ spec: SourceSpec) -> Bool {
        let lower = spec.location.lowercased()
        let ext = [".geojson", ".geojsonl", ".geojsons", ".geojsonseq"].contains { lower.hasSuffix($0) }
        return ext && spec.layer == nil && !spec.location.hasPrefix("/vsi") && LocalSource.isRegularFile(spec.location)
    }

    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable {
        if let table = try readOwn(spec, role: role, mapping: mapping, sink: sink) { return table }
        // Not a FeatureCollection or Features (a bare geometry, say): GDAL knows what to make of it.
        return try GDALSourceReader.read(spec, role: role, mapping: mapping, sink: sink)
    }

    /// As `read`, but nil instead of handing a file that is not a FeatureCollection or Features to GDAL.
    static func readOwn(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable? {
        let file: MappedFile
        do {
            file = try MappedFile(path: spec.location)
        } catch {
            throw InputError("\(role.rawValue): \(error.message)")
        }
        let fields = mapping.candidates(for: role)
        var state = ReadState(fields: fields, sink: sink)
        let result: Result<Void, GeoJSONScanner.Failure> = withExtendedLifetime(file) {
            var scanner = GeoJSONScanner(file.bytes, mapped: true)
            return Result { () throws(GeoJSONScanner.Failure) in
                try readTopLevel(&scanner, &state)
            }
        }
        if case .failure(let failure) = result {
            if failure.what == notFeatures { return nil }
            throw InputError("\(role.rawValue): \(spec.location): \(failure.description)")
        }
        var resolved: [String: String] = [:]
        for (f, field) in fields.enumerated() {
            if field.overridden && !state.keySeen[f] {
                throw InputError("\(role.rawValue): field '\(field.names[0])' (for \(field.canonical)) not found in \(spec.location)")
            }
            if let best = FieldMapping.mostUsed(state.hits[f]) {
                resolved[field.canonical] = best < field.names.count ? field.names[best] : "id (feature member)"
            }
        }
        return SourceTable(spec: spec, role: role, reader: "flyr-link GeoJSON reader", layerName: layerName(spec.location),
                           crsDefinition: state.crs ?? "OGC:CRS84", resolvedFields: resolved, attributeFilter: nil, records: sink.finish(),
                           recordCount: sink.count, crsIsFormatDefault: state.crs == nil, fields: state.fieldList)
    }

    static func layerName(_ path: String) -> String {
        var name = URL(fileURLWithPath: path).lastPathComponent
        if let dot = name.firstIndex(of: ".") { name = String(name[..<dot]) }
        return name
    }

    /// What reading accumulates: records, the CRS member, and which source name fed each field.
    struct ReadState {
        var fields: [(canonical: String, names: [String], overridden: Bool)]
        /// Property name (as written, then lowercased) → (field, candidate rank).
        var wanted: [String: [(field: Int, rank: Int)]] = [:]
        var sink: RecordSink
        var crs: String?
        var hits: [[Int]]
        var keySeen: [Bool]
        /// `readObject`'s property buffer, kept between features.
        var propertyScratch: [(rank: Int, value: String?)?] = []
        /// Every property name seen (the first `maxPropertyNames`), in the order first seen, with
        /// the JSON kind of its first non-null value: the source's field list.
        var propertyNames: [String] = []
        var propertyKinds: [String?] = []
        var propertyIndex: [String: Int] = [:]
        static let maxPropertyNames = 1000

        init(fields: [(canonical: String, names: [String], overridden: Bool)], sink: RecordSink) {
            self.fields = fields
            self.sink = sink
            hits = fields.map { [Int](repeating: 0, count: $0.names.count + 1) }
            keySeen = [Bool](repeating: false, count: fields.count)
            for (f, field) in fields.enumerated() {
                for (rank, name) in field.names.enumerated() { wanted[name.lowercased(), default: []].append((f, rank)) }
            }
        }

        func lookup(_ key: String) -> [(field: Int, rank: Int)]? {
            wanted[key] ?? wanted[key.lowercased()]
        }

        /// The slot of property `name` in the field list, added when new (nil past the limit).
        mutating func slot(ofProperty name: String) -> Int? {
            if let k = propertyIndex[name] { return k }
            guard propertyNames.count < Self.maxPropertyNames else { return nil }
            propertyIndex[name] = propertyNames.count
            propertyNames.append(name)
            propertyKinds.append(nil)
            return propertyNames.count - 1
        }

        /// A property's value kind, noted from the byte that starts its value (nulls say nothing).
        mutating func noteKind(slot: Int?, firstByte c: UInt8) {
            guard let slot, propertyKinds[slot] == nil else { return }
            switch c {
            case UInt8(ascii: "\""): propertyKinds[slot] = "String"
            case UInt8(ascii: "t"), UInt8(ascii: "f"): propertyKinds[slot] = "Boolean"
            case UInt8(ascii: "{"): propertyKinds[slot] = "Object"
            case UInt8(ascii: "["): propertyKinds[slot] = "Array"
            case UInt8(ascii: "n"): break
            default: propertyKinds[slot] = "Number"
            }
        }

        /// The field list: names in the order first seen, "null" for those only ever null.
        var fieldList: [SourceField] { zip(propertyNames, propertyKinds).map { SourceField(name: $0, type: $1 ?? "null") } }

        /// A state for one piece of a parallel parse: the same fields, its own counts and a sink
        /// that collects.
        func forPiece() -> ReadState {
            var piece = self
            piece.sink = RecordSink()
            piece.hits = hits.map { $0.map { _ in 0 } }
            piece.keySeen = keySeen.map { _ in false }
            return piece
        }

        /// A piece's records (renumbered in file order) and counts.
        mutating func absorb(_ piece: ReadState) {
            // Renumbered in place and handed on as one batch: no record is copied.
            var records = piece.sink.finish()
            let first = sink.count
            for k in records.indices { records[k].ordinal = first + k + 1 }
            sink.append(contentsOf: &records)
            for f in hits.indices {
                for r in hits[f].indices { hits[f][r] += piece.hits[f][r] }
                keySeen[f] = keySeen[f] || piece.keySeen[f]
            }
            for (name, kind) in zip(piece.propertyNames, piece.propertyKinds) {
                guard let k = slot(ofProperty: name) else { break }
                if propertyKinds[k] == nil { propertyKinds[k] = kind }
            }
        }

        /// Property keys seen so far, as bytes, with what they feed: every feature repeats the same
        /// few keys, and comparing bytes is cheaper than making and hashing a string each time.
        var keyCache: [(key: [UInt8], targets: [(field: Int, rank: Int)]?, slot: Int?)] = []

        /// What a property feeds, and its slot in the field list.
        mutating func lookup(_ span: Range<Int>, in bytes: UnsafeRawBufferPointer) -> (targets: [(field: Int, rank: Int)]?, slot: Int?) {
            let key = UnsafeRawBufferPointer(rebasing: bytes[span])
            for entry in keyCache where entry.key.count == key.count && entry.key.elementsEqual(key) { return (entry.targets, entry.slot) }
            let name = String(decoding: key, as: UTF8.self)
            let targets = lookup(name), slot = slot(ofProperty: name)
            if keyCache.count < 256 { keyCache.append((Array(key), targets, slot)) }
            return (targets, slot)
        }
    }

    /// Top-level values until the end: FeatureCollections, or Features one after another (GeoJSONSeq).
    static func readTopLevel(_ s: inout GeoJSONScanner, _ state: inout ReadState) throws(GeoJSONScanner.Failure) {
        s.skipSpace()
        guard !s.atEnd else { throw s.fail("empty file") }
        var place = Place.fileStart
        while true {
            s.skipSpace()
            if s.atEnd { return }
            try readObject(&s, &state, place)
            place = .sequence
            s.releaseConsumed()
        }
    }

    static let notFeatures = "not a FeatureCollection or Feature"

    /// Where an object is: the file's first value (a FeatureCollection or a Feature, or else the
    /// file is GDAL's to read), a later top-level value of a text sequence, or a member of
    /// `features`. Past the first, an object that is not a Feature is a rejected row.
    enum Place { case fileStart, sequence, collection }

    /// A FeatureCollection's features, parsed on all cores: the array is cut into batches of about
    /// 4 MB (a batch's records are held at once, for each layer); in each, the features' extents
    /// are found by their brackets alone, the batch is split into pieces parsed at once (each with
    /// its own scanner and state over the same bytes, so error offsets stay those of the file), and
    /// the pieces' records go to the sink in file order.
    static func readFeatures(_ s: inout GeoJSONScanner, _ state: inout ReadState) throws(GeoJSONScanner.Failure) {
        guard try s.open(UInt8(ascii: "["), UInt8(ascii: "]")) else { return }
        let batchBytes = 4 << 20
        let pieces = 8
        let featuresStart = s.i
        var done = false
        while !done {
            var spans: [Range<Int>] = []
            let batchStart = s.i
            while true {
                s.skipSpace()
                let start = s.i
                try s.skipStructure()
                spans.append(start..<s.i)
                if !(try s.more(closer: UInt8(ascii: "]"))) { done = true; break }
                if s.i - batchStart >= batchBytes { break }
            }
            if batchStart == featuresStart, !done, s.i > batchStart {
                // The features' share of the file so far, scaled to the whole file (with a little to
                // spare): what the layer will hold, told before it is held.
                let estimate = Double(spans.count) * Double(s.bytes.count - featuresStart) / Double(s.i - batchStart)
                state.sink.reserveCapacity(Int(min(estimate * 1.05, Double(s.bytes.count / 16))))
            }
            try parse(spans, pieces: pieces, bytes: s.bytes, into: &state)
            s.releaseConsumed()
        }
    }

    /// Parses the features at `spans` in `pieces` contiguous groups at once and hands their records
    /// on in order; the first failure in file order is thrown.
    private static func parse(_ spans: [Range<Int>], pieces: Int, bytes: UnsafeRawBufferPointer,
                              into state: inout ReadState) throws(GeoJSONScanner.Failure) {
        let n = min(pieces, spans.count)
        let shared = UncheckedBox((state, bytes))  // read-only during the parse
        let results = ResultSlots<(ReadState, GeoJSONScanner.Failure?)>.collect(n) { results in
            DispatchQueue.concurrentPerform(iterations: n) { p in
                let (template, bytes) = shared.value
                var local = template.forPiece()
                var failure: GeoJSONScanner.Failure?
                for k in (p * spans.count / n)..<((p + 1) * spans.count / n) {
                    var scanner = GeoJSONScanner(bytes)
                    scanner.i = spans[k].lowerBound
                    do throws(GeoJSONScanner.Failure) { try readObject(&scanner, &local, .collection) } catch { failure = error; break }
                }
                results.set(p, (local, failure))
            }
        }
        for (local, failure) in results {
            state.absorb(local)
            if let failure { throw failure }
        }
    }

    /// A FeatureCollection or a Feature, members in any order; any other object where a Feature
    /// belongs is a row rejected for it (`notAFeatureReason`).
    static func readObject(_ s: inout GeoJSONScanner, _ state: inout ReadState, _ place: Place) throws(GeoJSONScanner.Failure) {
        var featureID: String?
        // The wanted properties of this object, in a buffer reused from feature to feature.
        var props: [(rank: Int, value: String?)?] = []
        swap(&props, &state.propertyScratch)
        defer { swap(&props, &state.propertyScratch) }
        props.removeAll(keepingCapacity: true)
        props.append(contentsOf: repeatElement(nil, count: state.fields.count))
        var geometry: SourceGeometry?
        var geometryError: String?
        var type = MemberType.absent
        var hasFeatures = false
        let topLevel = place != .collection
        // (Members in any order; `another`: one follows.)
        var another = false
        if place != .fileStart, let kind = MemberType.nonObjectKind(try s.peek()) {
            try s.skipValue()
            type = .notAnObject(kind)
        } else {
            another = try s.open(UInt8(ascii: "{"), UInt8(ascii: "}"))
        }
        while another {
            let key = try s.string()
            try s.expect(UInt8(ascii: ":"))
            switch key {
            case "type":
                type = try MemberType.read(&s)
                if place == .fileStart && !hasFeatures && !type.isFeature && type != .named("FeatureCollection") { throw s.fail(notFeatures) }
            case "features" where topLevel:
                hasFeatures = true
                try readFeatures(&s, &state)
            case "crs" where topLevel:
                state.crs = try crsName(&s)
            case "id":
                featureID = try s.scalarText()
            case "properties":
                try readProperties(&s, &state, into: &props)
            case "geometry":
                let mark = s.i
                do {
                    geometry = try GeoJSONGeometry.read(&s)
                } catch let e as GeoJSONGeometry.Invalid {
                    geometryError = e.description
                } catch let e as GeoJSONScanner.Failure {
                    // A malformed geometry inside well-formed JSON (a position of one number or of
                    // strings, coordinates nested too deeply): this feature's reject, and the file
                    // goes on. Broken JSON still ends the read (skipping it throws).
                    s.i = mark
                    try s.skipValue()
                    geometry = nil
                    geometryError = e.what
                } catch {
                    throw s.fail("\(error)")
                }
            default:
                try s.skipValue()
            }
            another = try s.more(closer: UInt8(ascii: "}"))
        }
        if topLevel && (hasFeatures || type == .named("FeatureCollection")) { return }
        var values: [String?] = []
        values.reserveCapacity(state.fields.count)
        for f in state.fields.indices {
            if let p = props[f], let v = p.value {
                state.hits[f][p.rank] += 1
                values.append(v)
            } else if state.fields[f].canonical == "id" && !state.fields[f].overridden, let fid = featureID, !fid.isEmpty {
                state.hits[f][state.fields[f].names.count] += 1
                values.append(fid)
            } else {
                values.append(nil)
            }
        }
        var record = SourceTable.Record(ordinal: state.sink.count + 1, values: values, wkb: nil)
        if type.isFeature {
            record.geometry = geometry
            record.geometryError = geometryError
        } else {
            record.notAFeature = type.notAFeatureReason
        }
        state.sink.append(record)
    }

    /// An object's `type` member, as far as telling a Feature from anything else goes.
    enum MemberType: Equatable {
        case absent, null, notAString
        case named(String)
        /// Not an object at all: a JSON string, number, array, boolean or null.
        case notAnObject(String)

        /// What a value that starts with `c` is, when not an object.
        static func nonObjectKind(_ c: UInt8) -> String? {
            switch c {
            case UInt8(ascii: "{"): nil
            case UInt8(ascii: "\""): "a string"
            case UInt8(ascii: "["): "an array"
            case UInt8(ascii: "n"): "null"
            case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
            default: "a number"
            }
        }

        static func read(_ s: inout GeoJSONScanner) throws(GeoJSONScanner.Failure) -> MemberType {
            let first = try s.peek()
            let text = try s.scalarText()
            if first == UInt8(ascii: "\"") { return .named(text ?? "") }
            return first == UInt8(ascii: "n") ? .null : .notAString
        }

        var isFeature: Bool { self == .named("Feature") }

        static let geometryTypes: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection"]

        /// Why an object with this type is not a Feature (a row's reject reason).
        var notAFeatureReason: String {
            switch self {
            case .absent: return "not a GeoJSON Feature: it has no \"type\" member"
            case .null: return "not a GeoJSON Feature: its \"type\" is null"
            case .notAString: return "not a GeoJSON Feature: its \"type\" is not a string"
            case .notAnObject(let kind): return "not a GeoJSON Feature: \(kind), not an object"
            case .named(let name) where Self.geometryTypes.contains(name):
                return "not a GeoJSON Feature: a bare \(name) geometry (\"type\" must be \"Feature\", with the geometry in \"geometry\")"
            case .named(let name):
                return "not a GeoJSON Feature: its \"type\" is \"\(name)\", not \"Feature\""
            }
        }
    }

    /// The wanted properties: for each field the best-ranked candidate with a non-empty value.
    static func readProperties(_ s: inout GeoJSONScanner, _ state: inout ReadState,
                               into props: inout [(rank: Int, value: String?)?]) throws(GeoJSONScanner.Failure) {
        if try s.peek() == UInt8(ascii: "n") { try s.literal("null"); return }
        guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { return }
        repeat {
            let (targets, slot): ([(field: Int, rank: Int)]?, Int?)
            if let span = try s.plainStringSpan() {
                (targets, slot) = state.lookup(span, in: s.bytes)
            } else {
                let name = try s.string()
                (targets, slot) = (state.lookup(name), state.slot(ofProperty: name))
            }
            try s.expect(UInt8(ascii: ":"))
            state.noteKind(slot: slot, firstByte: try s.peek())
            guard let targets else { try s.skipValue(); continue }
            let value = try s.scalarText()
            for (f, rank) in targets {
                state.keySeen[f] = true
                guard let value, !value.isEmpty else { continue }
                if let current = props[f], current.rank <= rank { continue }
                props[f] = (rank, value)
            }
        } while try s.more(closer: UInt8(ascii: "}"))
    }

    /// `"crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::25832"}}` (or the old `EPSG` type with a code).
    static func crsName(_ s: inout GeoJSONScanner) throws(GeoJSONScanner.Failure) -> String? {
        if try s.peek() == UInt8(ascii: "n") { try s.literal("null"); return nil }
        var name: String?
        guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { return nil }
        repeat {
            let key = try s.string()
            try s.expect(UInt8(ascii: ":"))
            if key == "properties", try s.peek() == UInt8(ascii: "{") {
                guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { continue }
                repeat {
                    let k = try s.string()
                    try s.expect(UInt8(ascii: ":"))
                    let v = try s.scalarText()
                    if k == "name" { name = v } else if k == "code", let v { name = "EPSG:\(v)" }
                } while try s.more(closer: UInt8(ascii: "}"))
            } else {
                try s.skipValue()
            }
        } while try s.more(closer: UInt8(ascii: "}"))
        return name
    }
}
