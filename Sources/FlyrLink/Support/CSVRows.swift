/// RFC 4180 rows (quoted fields, doubled quotes), as CSVWriter writes them.
enum CSVRows {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var text = text
        text.withUTF8 { utf8 in
            forEachRow(UnsafeRawBufferPointer(utf8)) { row in rows.append((0..<row.count).map { row[$0] }) }
        }
        return rows
    }

    /// Calls `body` with each row, its fields decoded only when read: a large table (a version's
    /// links.csv) is read without a String for every field and an array for every row.
    static func forEachRow(_ bytes: UnsafeRawBufferPointer, _ body: (Row) throws -> Void) rethrows {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        var row = Row(bytes: bytes)
        var start = 0
        var quoted = false, fieldStarted = false, special = false
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if quoted {
                if c == quote {
                    if i + 1 < bytes.count, bytes[i + 1] == quote { i += 1 } else { quoted = false }
                }
            } else if c == quote {
                quoted = true; fieldStarted = true; special = true
            } else if c == comma {
                row.spans.append(Row.Span(start: start, end: i, special: special))
                start = i + 1; special = false; fieldStarted = true
            } else if c == lf {
                row.spans.append(Row.Span(start: start, end: i, special: special))
                start = i + 1; special = false; fieldStarted = false
                try body(row)
                row.spans.removeAll(keepingCapacity: true)
            } else if c == cr {
                special = true
            } else {
                fieldStarted = true
            }
            i += 1
        }
        if fieldStarted || !row.spans.isEmpty {
            row.spans.append(Row.Span(start: start, end: bytes.count, special: special))
            try body(row)
        }
    }

    /// One row: where each field lies in the text.
    struct Row {
        struct Span {
            var start: Int, end: Int
            /// Holds quotes or carriage returns: decoded byte by byte.
            var special: Bool
        }

        let bytes: UnsafeRawBufferPointer
        var spans: [Span] = []
        var count: Int { spans.count }

        subscript(i: Int) -> String {
            let span = spans[i]
            let raw = UnsafeRawBufferPointer(rebasing: bytes[span.start..<span.end])
            guard span.special else { return String(decoding: raw, as: UTF8.self) }
            // Quotes open and close quoted text, a doubled one inside is a quote; a CR outside is dropped.
            var field: [UInt8] = []
            var quoted = false
            var k = 0
            while k < raw.count {
                let c = raw[k]
                if quoted {
                    if c == UInt8(ascii: "\"") {
                        if k + 1 < raw.count, raw[k + 1] == UInt8(ascii: "\"") { field.append(c); k += 1 } else { quoted = false }
                    } else {
                        field.append(c)
                    }
                } else if c == UInt8(ascii: "\"") {
                    quoted = true
                } else if c != 0x0D {
                    field.append(c)
                }
                k += 1
            }
            return String(decoding: field, as: UTF8.self)
        }
    }
}
