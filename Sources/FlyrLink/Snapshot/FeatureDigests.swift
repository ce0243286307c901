import Foundation

/// Feature id → SHA-256 (the 32 bytes) of its geometry and the named properties, for
/// `diff.json`'s changed buildings and addresses. The GeoJSON is scanned in place
/// (GeoJSONScanner), not built into Foundation objects: both versions' files are written by the
/// same writer, so a feature's geometry and values are compared as the JSON text they were written as.
enum FeatureDigests {
    /// Feature id → its digest.
    typealias Table = [String: FeatureDigest]

    static let buildingKeys = ["height_m", "levels"]
    static let addressKeys = AddressField.allCases.map(\.rawValue)

    /// A version's buildings' and addresses' digests: those it keeps (`DigestFile`), else its two gzip
    /// layers scanned, both at once (no digest file, or one cut short).
    static func ofVersion(_ dir: URL) throws(OutputError) -> (buildings: Table, addresses: Table) {
        if let kept = DigestFile.read(dir) { return kept }
        let layers = [("buildings.geojson.gz", buildingKeys), ("addresses.geojson.gz", addressKeys)]
        let results = ResultSlots<Result<Table, OutputError>>.collect(layers.count) { slots in
            DispatchQueue.concurrentPerform(iterations: layers.count) { k in
                slots.set(k, Result { () throws(OutputError) in
                    try ofGzipFile(dir.appendingPathComponent(layers[k].0).path, keys: layers[k].1)
                })
            }
        }
        return (try results[0].get(), try results[1].get())
    }

    /// The digests of a gzip GeoJSON file (a version's `buildings.geojson.gz`, say).
    static func ofGzipFile(_ path: String, keys: [String]) throws(OutputError) -> Table {
        let text = try Gzip.decompressFile(path)
        let result = text.withUnsafeBytes { bytes in Result { () throws(OutputError) in try of(bytes, keys: keys, file: path) } }
        return try result.get()
    }

    /// The digests of a GeoJSON FeatureCollection's bytes (`file` names it in the error).
    static func of(_ bytes: UnsafeRawBufferPointer, keys: [String], file: String) throws(OutputError) -> Table {
        do {
            return try scan(bytes, keys: keys)
        } catch {
            throw OutputError("\(file) is not a GeoJSON FeatureCollection: \(error.description)")
        }
    }

    private static func scan(_ bytes: UnsafeRawBufferPointer, keys: [String]) throws(GeoJSONScanner.Failure) -> Table {
        var s = GeoJSONScanner(bytes)
        var out: Table = [:]
        out.reserveCapacity(bytes.count / 400)  // about a feature's bytes in a version's files: no regrowing
        var sawFeatures = false
        if try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
            repeat {
                let member = try s.string()
                try s.expect(UInt8(ascii: ":"))
                guard member == "features" else { try s.skipValue(); continue }
                sawFeatures = true
                guard try s.open(UInt8(ascii: "["), UInt8(ascii: "]")) else { continue }
                let properties = PropertyNames(keys: keys)
                var values = [Range<Int>?](repeating: nil, count: keys.count)
                var sha = SHA256()
                repeat {
                    try featureDigest(&s, properties: properties, values: &values, sha: &sha, into: &out)
                } while try s.more(closer: UInt8(ascii: "]"))
            } while try s.more(closer: UInt8(ascii: "}"))
        }
        guard sawFeatures else { throw s.fail("no features") }
        s.skipSpace()
        guard s.atEnd else { throw s.fail("text after the FeatureCollection") }
        return out
    }

    /// One feature: its id (the member, else the `id` property; strings only) → SHA-256 of the
    /// geometry's text and each key's value text, `null` for a missing one. Names are matched as
    /// bytes where they lie (a String for each of a million names cost more than the hashing);
    /// `values` is scratch, one slot a key; `sha` is started, and left started.
    private static func featureDigest(_ s: inout GeoJSONScanner, properties: PropertyNames, values: inout [Range<Int>?],
                                      sha: inout SHA256, into out: inout Table) throws(GeoJSONScanner.Failure) {
        var id: String?, propertyID: Range<Int>?
        var geometry: Range<Int>?
        for k in values.indices { values[k] = nil }
        // A value's text. Containers (the geometry) by their brackets and strings in place: the
        // files are flyr-link's own (and checksummed), so the strict skip's String for every
        // number and name would buy nothing; the features' own members are still read strictly.
        func text(_ s: inout GeoJSONScanner) throws(GeoJSONScanner.Failure) -> Range<Int> {
            let first = try s.peek()
            let start = s.i
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["): try s.skipStructure()
            case UInt8(ascii: "\""): if try s.plainStringSpan() == nil { _ = try s.string() }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try s.numberSpan()
            default: try s.skipValue()
            }
            return start..<s.i
        }
        func stringValue(_ s: inout GeoJSONScanner) throws(GeoJSONScanner.Failure) -> String? {
            if try s.peek() == UInt8(ascii: "\"") { return try s.string() }
            try s.skipValue()
            return nil
        }
        guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { return }
        repeat {
            let member = try name(&s, among: featureMembers)
            try s.expect(UInt8(ascii: ":"))
            switch member {
            case 0: id = try stringValue(&s)
            case 1: geometry = try text(&s)
            case 2 where try s.peek() == UInt8(ascii: "{"):
                guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { break }
                repeat {
                    let key = try name(&s, among: properties.names)
                    try s.expect(UInt8(ascii: ":"))
                    let span = try text(&s)
                    if key == properties.id { propertyID = span }
                    if let key, key < values.count { values[key] = span }
                } while try s.more(closer: UInt8(ascii: "}"))
            default: try s.skipValue()
            }
        } while try s.more(closer: UInt8(ascii: "}"))
        if id == nil, let span = propertyID {
            var v = GeoJSONScanner(s.bytes)
            v.i = span.lowerBound
            id = try stringValue(&v)
        }
        guard let featureID = id else { return }
        add(geometry, of: s.bytes, to: &sha)
        for span in values { add(span, of: s.bytes, to: &sha) }
        out[featureID] = FeatureDigest(finishing: &sha)
    }

    private static let null = Array("null".utf8), separator: [UInt8] = [0x1F]

    /// A value's text (`null` when missing) and a separator.
    private static func add(_ span: Range<Int>?, of bytes: UnsafeRawBufferPointer, to sha: inout SHA256) {
        if let span { sha.update(UnsafeRawBufferPointer(rebasing: bytes[span])) } else { sha.update(null) }
        sha.update(separator)
    }

    /// The property names a digest reads: the keys, then `id` unless it is one of them.
    private struct PropertyNames {
        let names: [[UInt8]]
        /// Where `id` is in `names`.
        let id: Int

        init(keys: [String]) {
            let idName = Array("id".utf8)
            var names = keys.map { Array($0.utf8) }
            if !names.contains(idName) { names.append(idName) }
            self.names = names
            id = names.firstIndex(of: idName)!
        }
    }

    /// A feature's members read: its id, geometry and properties, in that order.
    private static let featureMembers = ["id", "geometry", "properties"].map { Array($0.utf8) }

    /// Which of `names` the member name at the scanner is, nil for none: compared in place, or
    /// decoded when it has escapes.
    private static func name(_ s: inout GeoJSONScanner, among names: [[UInt8]]) throws(GeoJSONScanner.Failure) -> Int? {
        if let span = try s.plainStringSpan() {
            let raw = UnsafeRawBufferPointer(rebasing: s.bytes[span])
            return names.firstIndex { $0.count == raw.count && $0.elementsEqual(raw) }
        }
        let decoded = Array(try s.string().utf8)
        return names.firstIndex(of: decoded)
    }
}

/// A feature's SHA-256, its first 128 bits, held in two words: a table of a million digests is
/// then no million arrays to allocate, retain and release (a third of what a later snapshot
/// version added to its run), and `digests.bin` holds 16 bytes a feature. Two different features
/// share 128 bits with odds of 2^-128 per pair.
struct FeatureDigest: Hashable, Sendable {
    private var words: (UInt64, UInt64) = (0, 0)
    static let size = 16

    /// `sha`'s digest; `sha` is started again.
    init(finishing sha: inout SHA256) {
        var full: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &full) { sha.finishAndRestart(into: $0.baseAddress!) }
        words = (full.0, full.1)
    }

    /// From its bytes as `digests.bin` holds them (`bytes`).
    init(_ raw: UnsafeRawBufferPointer) {
        precondition(raw.count == Self.size)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: raw) }
    }

    var bytes: [UInt8] { withUnsafeBytes(of: words) { Array($0) } }

    static func == (a: FeatureDigest, b: FeatureDigest) -> Bool { a.words == b.words }
    func hash(into h: inout Hasher) { h.combine(words.0); h.combine(words.1) }
}
