/// A minimal JSON parser (RFC 8259) for the `geo` metadata. Object key order is preserved so that
/// PROJJSON can be re-serialised faithfully; numbers keep their source text. Depth is bounded.
indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    var stringValue: String? { if case let .string(s) = self { return s }; return nil }
    var doubleValue: Double? { if case let .number(d, _) = self { return d }; return nil }
    var arrayValue: [JSONValue]? { if case let .array(a) = self { return a }; return nil }
    var isObject: Bool { if case .object = self { return true }; return false }

    /// Compact serialisation.
    var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(_, text): out += text
        case let .string(s): JSONValue.writeString(s, to: &out)
        case let .array(a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out)
            }
            out += "]"
        case let .object(m):
            out += "{"
            for (i, member) in m.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

struct JSONMember: Sendable, Equatable {
    var key: String
    var value: JSONValue
}

struct JSONParser {
    static let maxDepth = 128
    private let b: [UInt8]
    private var i = 0

    struct Failure: Error { let message: String }

    static func parse(_ text: String) throws -> JSONValue {
        var p = JSONParser(b: Array(text.utf8))
        p.skipWhitespace()
        let v = try p.value(depth: 0)
        p.skipWhitespace()
        guard p.i == p.b.count else { throw Failure(message: "trailing characters at offset \(p.i)") }
        return v
    }

    private init(b: [UInt8]) { self.b = b }

    private mutating func skipWhitespace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0a || b[i] == 0x0d || b[i] == 0x09 { i += 1 }
    }

    private func fail(_ m: String) -> Failure { Failure(message: "\(m) at offset \(i)") }

    private mutating func literal(_ s: String, _ v: JSONValue) throws -> JSONValue {
        let u = Array(s.utf8)
        guard b.count - i >= u.count, Array(b[i..<(i + u.count)]) == u else { throw fail("invalid literal") }
        i += u.count
        return v
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maxDepth else { throw fail("JSON nested too deeply") }
        guard i < b.count else { throw fail("unexpected end of JSON") }
        switch b[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [JSONMember] = []
            skipWhitespace()
            if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected object key") }
                let key = try string()
                skipWhitespace()
                guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipWhitespace()
                members.append(JSONMember(key: key, value: try value(depth: depth + 1)))
                skipWhitespace()
                guard i < b.count else { throw fail("unterminated object") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw fail("expected ',' or '}'")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                guard i < b.count else { throw fail("unterminated array") }
                if b[i] == UInt8(ascii: ",") { i += 1; continue }
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            let start = i
            while i < b.count, let c = Optional(b[i]),
                  (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                i += 1
            }
            let text = String(decoding: b[start..<i], as: UTF8.self)
            guard !text.isEmpty, let d = Double(text) else { throw fail("invalid JSON value") }
            return .number(d, text: text)
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard b.count - i >= 4 else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            i += 1
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
        }
        return v
    }

    private mutating func string() throws -> String {
        i += 1   // opening quote
        var bytes: [UInt8] = []
        while true {
            guard i < b.count else { throw fail("unterminated string") }
            let c = b[i]
            i += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { bytes.append(c); continue }
            guard i < b.count else { throw fail("unterminated escape") }
            let e = b[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5c)
            case UInt8(ascii: "/"): bytes.append(0x2f)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0c)
            case UInt8(ascii: "n"): bytes.append(0x0a)
            case UInt8(ascii: "r"): bytes.append(0x0d)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if code >= 0xD800 && code < 0xDC00, b.count - i >= 6, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                    i += 2
                    let low = try hex4()
                    if low >= 0xDC00 && low < 0xE000 { code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) }
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw fail("invalid escape")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
