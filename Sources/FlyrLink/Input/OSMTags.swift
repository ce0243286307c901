/// Parses GDAL's OSM `other_tags` HSTORE text: `"k1"=>"v1","k2"=>"v2"` with `\"` and `\\` escapes.
enum OSMTags {
    static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var chars = Array(text.utf8)[...]
        func quoted() -> String? {
            guard chars.first == UInt8(ascii: "\"") else { return nil }
            chars = chars.dropFirst()
            var out: [UInt8] = []
            while let c = chars.first {
                chars = chars.dropFirst()
                if c == UInt8(ascii: "\\"), let next = chars.first {
                    out.append(next)
                    chars = chars.dropFirst()
                } else if c == UInt8(ascii: "\"") {
                    return String(decoding: out, as: UTF8.self)
                } else {
                    out.append(c)
                }
            }
            return nil
        }
        while !chars.isEmpty {
            while let c = chars.first, c == UInt8(ascii: ",") || c == UInt8(ascii: " ") { chars = chars.dropFirst() }
            guard let key = quoted() else { break }
            guard chars.starts(with: "=>".utf8) else { break }
            chars = chars.dropFirst(2)
            guard let value = quoted() else { break }
            result[key] = value
        }
        return result
    }
}
