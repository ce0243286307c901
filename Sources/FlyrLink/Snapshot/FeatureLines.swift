/// Reads the feature lines of a GeoJSON file as flyr-link writes it, for the snapshot diff:
/// `{"type":"Feature","id":"…","geometry":{…},"properties":{…}}` a line, properties flat (strings,
/// numbers, booleans, null). Nil when a line is not of that shape (the caller then parses the
/// file as JSON).
enum FeatureLines {
    private static let head = Array(#"{"type":"Feature","id":"#.utf8)
    private static let geometryKey = Array(#","geometry":"#.utf8)
    private static let propertiesKey = Array(#","properties":{"#.utf8)

    /// Feature id → SHA-256 of the geometry's text and the named properties' values as written.
    static func digests(_ bytes: [UInt8], keys: [String]) -> [String: String]? {
        let wanted = keys.map { Array($0.utf8) }
        var out: [String: String] = [:]
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            let line = bytes[lineStart..<lineEnd]
            guard line.starts(with: head) else {
                // The collection's first and last lines.
                if line.starts(with: Array(#"{"type":"FeatureCollection""#.utf8)) || line.elementsEqual([0x5D, 0x7D]) || line.isEmpty { continue }
                return nil
            }
            var at = line.startIndex + head.count
            guard let (id, afterID) = string(line, from: at), line[afterID...].starts(with: geometryKey) else { return nil }
            at = afterID + geometryKey.count
            guard let split = find(propertiesKey, in: line, from: at) else { return nil }
            var material = Array(line[at..<split])
            guard let values = flatObject(line, from: split + propertiesKey.count - 1) else { return nil }
            for (k, key) in wanted.enumerated() {
                material += [0x01] + Array(keys[k].utf8) + [0x3D] + (values[key] ?? Array("null".utf8))
            }
            out[id] = SHA256.hash(material)
        }
        return out
    }

    /// The JSON string starting at `from` (its opening quote), decoded enough to be a key, and
    /// the index after its closing quote.
    private static func string(_ b: ArraySlice<UInt8>, from: Int) -> (String, Int)? {
        guard from < b.endIndex, b[from] == 0x22 else { return nil }
        var i = from + 1
        while i < b.endIndex, b[i] != 0x22 { i += b[i] == 0x5C ? 2 : 1 }
        guard i < b.endIndex else { return nil }
        return (String(decoding: b[(from + 1)..<i], as: UTF8.self), i + 1)
    }

    private static func find(_ needle: [UInt8], in b: ArraySlice<UInt8>, from: Int) -> Int? {
        var i = from
        while i + needle.count <= b.endIndex {
            if b[i] == needle[0], b[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The members of the flat object opening at `from`: key bytes → the value's text.
    private static func flatObject(_ b: ArraySlice<UInt8>, from: Int) -> [[UInt8]: [UInt8]]? {
        guard from < b.endIndex, b[from] == 0x7B else { return nil }
        var members: [[UInt8]: [UInt8]] = [:]
        var i = from + 1
        while i < b.endIndex, b[i] != 0x7D {
            guard b[i] == 0x22, let (_, afterKey) = string(b, from: i), afterKey < b.endIndex, b[afterKey] == 0x3A else { return nil }
            let key = Array(b[(i + 1)..<(afterKey - 1)])
            var j = afterKey + 1
            let valueStart = j
            if j < b.endIndex, b[j] == 0x22 {
                guard let (_, end) = string(b, from: j) else { return nil }
                j = end
            } else {
                while j < b.endIndex, b[j] != 0x2C, b[j] != 0x7D { guard b[j] != 0x7B, b[j] != 0x5B else { return nil }; j += 1 }
            }
            members[key] = Array(b[valueStart..<j])
            i = j < b.endIndex && b[j] == 0x2C ? j + 1 : j
        }
        return i < b.endIndex ? members : nil
    }
}
