/// A property value in a GeoJSON feature.
enum PropertyValue {
    case string(String?)
    case number(Double?, decimals: Int)
    case int(Int?)
    case bool(Bool)
    case null

    static func text(_ s: String?) -> PropertyValue { .string(s) }
}

/// A geometry to write, in EPSG:4326.
enum OutputGeometry {
    case point(Point2)
    case footprint(Footprint)
    /// A footprint read where it is kept (a run's buildings, from their store).
    case stored(FootprintView)
}

/// Streams an RFC 7946 FeatureCollection, one feature per line, coordinates with 7 decimals
/// (about 1 cm), exterior rings counterclockwise and holes clockwise.
final class GeoJSONWriter {
    private let out: ByteWriter
    private var first = true
    static let coordinateDecimals = 7

    init(path: String) throws {
        out = try ByteWriter(path: path)
        out.write("{\"type\":\"FeatureCollection\",\"features\":[\n")
    }

    typealias Emit = (_ id: String?, _ geometry: OutputGeometry?, _ properties: (inout FeatureProperties) -> Void) -> Void

    /// Items 0..<count, each emitting zero or more features, formatted on the workers
    /// (ParallelRows) and written in item order. A feature's properties are appended in place by
    /// its closure (no array of key/value pairs per feature: millions of features are written).
    func features(_ count: Int, pool: WorkerPool, _ make: (Int, Emit) -> Void) {
        GeoJSONWriter.features(count, into: [self], pool: pool) { i, rows in
            make(i) { id, geometry, properties in
                GeoJSONWriter.appendFeature(id: id, geometry: geometry, to: &rows.outputs[0], properties: properties)
            }
        }
    }

    /// Several collections written in one pass over items 0..<count: `make(i, &rows)` appends
    /// item i's features for `writers[k]` to `rows.outputs[k]` (with `appendFeature`).
    static func features(_ count: Int, into writers: [GeoJSONWriter], pool: WorkerPool, _ make: (Int, inout RowBuffers) -> Void) {
        ParallelRows.write(count, outputs: writers.count, pool: pool, sink: { k, chunk in writers[k].append(chunk: chunk) }, make)
    }

    /// A formatted chunk of features, each with its leading separator.
    private func append(chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        // The collection's first feature has no separator.
        out.write(bytes: first ? Array(chunk.dropFirst(2)) : chunk)
        first = false
    }

    /// One feature, with the separator before it.
    static func appendFeature(id: String?, geometry: OutputGeometry?, to b: inout [UInt8], properties: (inout FeatureProperties) -> Void) {
        appendFeature(id: id, to: &b, geometry: { b in
            if let geometry { appendGeometry(geometry, to: &b) } else { b.append(contentsOf: "null".utf8) }
        }, properties: properties)
    }

    /// One feature whose geometry was formatted already (`appendGeometry`), as several files
    /// carry the same footprint.
    static func appendFeature(id: String?, formattedGeometry: [UInt8], to b: inout [UInt8], properties: (inout FeatureProperties) -> Void) {
        appendFeature(id: id, to: &b, geometry: { $0.append(contentsOf: formattedGeometry) }, properties: properties)
    }

    private static func appendFeature(id: String?, to b: inout [UInt8], geometry: (inout [UInt8]) -> Void,
                                      properties: (inout FeatureProperties) -> Void) {
        b.append(contentsOf: ",\n{\"type\":\"Feature\"".utf8)
        if let id {
            b.append(contentsOf: ",\"id\":".utf8)
            JSONText.appendString(id, to: &b)
        }
        b.append(contentsOf: ",\"geometry\":".utf8)
        geometry(&b)
        b.append(contentsOf: ",\"properties\":{".utf8)
        var p = FeatureProperties()
        swap(&p.bytes, &b)  // the properties go straight into the feature's buffer
        properties(&p)
        swap(&p.bytes, &b)
        b.append(contentsOf: "}}".utf8)
    }

    func close() throws {
        out.write("\n]}\n")
        try out.close()
    }

    static func appendValue(_ value: PropertyValue, to b: inout [UInt8]) {
        switch value {
        case .string(let s?): JSONText.appendString(s, to: &b)
        case .number(let d?, let decimals) where d.isFinite: OutputNumber.append(d, decimals, to: &b)
        case .int(let i?): b.append(contentsOf: String(i).utf8)
        case .bool(let v): b.append(contentsOf: (v ? "true" : "false").utf8)
        default: b.append(contentsOf: "null".utf8)
        }
    }

    static func appendPoint(_ p: Point2, to b: inout [UInt8]) {
        b.append(UInt8(ascii: "["))
        OutputNumber.append(p.x, coordinateDecimals, to: &b)
        b.append(UInt8(ascii: ","))
        OutputNumber.append(p.y, coordinateDecimals, to: &b)
        b.append(UInt8(ascii: "]"))
    }

    /// Polygon `polygon` of `f`, its rings turned as RFC 7946 asks (`RingOrientation`).
    static func appendPolygon(_ f: FootprintView, _ polygon: Int, to b: inout [UInt8]) {
        b.append(UInt8(ascii: "["))
        let rings = f.ringsOfPolygon(polygon)
        for r in rings {
            if r > rings.lowerBound { b.append(UInt8(ascii: ",")) }
            b.append(UInt8(ascii: "["))
            let range = f.ringRange(r)
            let reversed = RingOrientation.needsReversal(f.ring(r), isShell: r == rings.lowerBound)
            var first = true
            for i in ReversibleRange(range: range, reversed: reversed) {
                if !first { b.append(UInt8(ascii: ",")) }
                first = false
                appendPoint(f.points[i], to: &b)
            }
            b.append(UInt8(ascii: "]"))
        }
        b.append(UInt8(ascii: "]"))
    }

    static func appendGeometry(_ g: OutputGeometry, to b: inout [UInt8]) {
        switch g {
        case .point(let p):
            b.append(contentsOf: "{\"type\":\"Point\",\"coordinates\":".utf8)
            appendPoint(p, to: &b)
        case .footprint(let f):
            f.withView { appendFootprint($0, to: &b) }
            return
        case .stored(let f):
            appendFootprint(f, to: &b)
            return
        }
        b.append(UInt8(ascii: "}"))
    }

    private static func appendFootprint(_ f: FootprintView, to b: inout [UInt8]) {
        if f.polygonCount == 1 {
            b.append(contentsOf: "{\"type\":\"Polygon\",\"coordinates\":".utf8)
            appendPolygon(f, 0, to: &b)
        } else {
            b.append(contentsOf: "{\"type\":\"MultiPolygon\",\"coordinates\":[".utf8)
            for i in 0..<f.polygonCount {
                if i > 0 { b.append(UInt8(ascii: ",")) }
                appendPolygon(f, i, to: &b)
            }
            b.append(UInt8(ascii: "]"))
        }
        b.append(UInt8(ascii: "}"))
    }
}

/// The members of a feature's "properties" object, appended in the order they are given.
struct FeatureProperties {
    fileprivate(set) var bytes: [UInt8] = []
    private var members = 0

    /// The comma before every member but the first.
    private mutating func separate() {
        if members > 0 { bytes.append(UInt8(ascii: ",")) }
        members += 1
    }

    private mutating func key(_ k: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: k.utf8Start, count: k.utf8CodeUnitCount))  // keys are plain literals
        bytes.append(contentsOf: "\":".utf8)
    }

    mutating func text(_ k: StaticString, _ s: String?) { key(k); GeoJSONWriter.appendValue(.string(s), to: &bytes) }
    mutating func number(_ k: StaticString, _ d: Double?, decimals: Int) { key(k); GeoJSONWriter.appendValue(.number(d, decimals: decimals), to: &bytes) }
    mutating func int(_ k: StaticString, _ i: Int?) { key(k); GeoJSONWriter.appendValue(.int(i), to: &bytes) }
    mutating func bool(_ k: StaticString, _ v: Bool) { key(k); GeoJSONWriter.appendValue(.bool(v), to: &bytes) }
    mutating func null(_ k: StaticString) { key(k); bytes.append(contentsOf: "null".utf8) }

    /// An address field, read where it is packed (no string made per address and field).
    mutating func field(_ k: StaticString, _ a: AddressPoint, _ f: AddressField) {
        key(k)
        a.withUTF8(f) { appendText(utf8: $0) }
    }

    /// A text member under a key given as a JSON string (quoted once by the caller), its value
    /// UTF-8 read in place (null when nil).
    mutating func text(quotedKey k: UnsafeBufferPointer<UInt8>, utf8 u: UnsafeBufferPointer<UInt8>?) {
        separate()
        bytes.append(contentsOf: k)
        bytes.append(UInt8(ascii: ":"))
        appendText(utf8: u)
    }

    /// A text value from UTF-8 read in place; null when nil.
    private mutating func appendText(utf8 u: UnsafeBufferPointer<UInt8>?) {
        if let u { JSONText.appendString(utf8: u, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// `AddressPoint.addressText` (the formatted text, else house number and street), written
    /// from the packed fields in place.
    mutating func addressText(_ k: StaticString, _ a: AddressPoint) {
        key(k)
        let formatted = a.withUTF8(.formatted) { f -> Bool in
            guard let f, !f.isEmpty else { return false }
            appendText(utf8: f)
            return true
        }
        guard !formatted else { return }
        a.withUTF8(.houseNumber) { number in
            a.withUTF8(.streetName) { street in
                let parts = [number, street].compactMap { $0.flatMap { $0.isEmpty ? nil : $0 } }
                guard !parts.isEmpty else { bytes.append(contentsOf: "null".utf8); return }
                bytes.append(UInt8(ascii: "\""))
                for (i, part) in parts.enumerated() {
                    if i > 0 { bytes.append(UInt8(ascii: " ")) }
                    JSONText.appendEscaped(part, to: &bytes)
                }
                bytes.append(UInt8(ascii: "\""))
            }
        }
    }

    /// A member whose key is not a literal (escaped as JSON text).
    mutating func text(key k: String, _ s: String?) {
        separate()
        JSONText.appendString(k, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        GeoJSONWriter.appendValue(.string(s), to: &bytes)
    }
}
