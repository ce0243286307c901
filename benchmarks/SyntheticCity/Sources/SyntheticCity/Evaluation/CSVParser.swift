import Foundation

/// RFC 4180 CSV reader: quoted fields may hold commas, newlines and doubled quotes;
/// CRLF or LF line ends; a UTF-8 BOM is skipped; blank lines are ignored.
public enum CSVParser {
    public static func forEachRow(in data: Data, _ body: ([String]) throws -> Void) throws {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var i = 0
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
            var row: [String] = []
            var field: [UInt8] = []
            var inQuotes = false
            var fieldWasQuoted = false

            func endField() {
                row.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                fieldWasQuoted = false
            }
            func endRow() throws {
                endField()
                let blank = row.count == 1 && row[0].isEmpty
                if !blank { try body(row) }
                row.removeAll(keepingCapacity: true)
            }

            while i < bytes.count {
                let b = bytes[i]
                if inQuotes {
                    if b == UInt8(ascii: "\"") {
                        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                            field.append(b)
                            i += 1
                        } else {
                            inQuotes = false
                        }
                    } else {
                        field.append(b)
                    }
                } else {
                    switch b {
                    case UInt8(ascii: "\""):
                        // A quote opens a quoted section only at the start of a field;
                        // elsewhere it is kept literally (lenient, like most readers).
                        if field.isEmpty && !fieldWasQuoted {
                            inQuotes = true
                            fieldWasQuoted = true
                        } else {
                            field.append(b)
                        }
                    case UInt8(ascii: ","):
                        endField()
                    case UInt8(ascii: "\n"):
                        try endRow()
                    case UInt8(ascii: "\r"):
                        if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
                        try endRow()
                    default:
                        field.append(b)
                    }
                }
                i += 1
            }
            if !field.isEmpty || !row.isEmpty || fieldWasQuoted { try endRow() }
        }
    }

    public static func rows(in data: Data) throws -> [[String]] {
        var result: [[String]] = []
        try forEachRow(in: data) { result.append($0) }
        return result
    }
}

/// Finds columns by header name, so column order does not matter.
struct CSVHeader {
    private var positions: [String: Int] = [:]

    init(_ names: [String]) {
        for (i, name) in names.enumerated() where positions[name] == nil {
            positions[name.trimmingCharacters(in: .whitespaces)] = i
        }
    }

    func index(_ name: String) -> Int? { positions[name] }

    func require(_ name: String, in file: String) throws -> Int {
        guard let i = positions[name] else {
            throw SyntheticCityError.badInput("\(file): missing column \(name)")
        }
        return i
    }
}

extension Array where Element == String {
    /// Field at `index`, or "" when a short row lacks it.
    func field(_ index: Int?) -> String {
        guard let index, index < count else { return "" }
        return self[index]
    }
}
