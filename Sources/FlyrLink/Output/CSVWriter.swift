/// Writes RFC 4180 CSV: a header, then rows; fields quoted only when they need it.
package final class CSVWriter {
    private let out: ByteWriter

    init(path: String, header: [String]) throws {
        out = try ByteWriter(path: path)
        row(header)
    }

    func row(_ fields: [String?]) {
        out.withBuffer { CSVWriter.appendRow(fields, to: &$0) }
    }

    package static func appendRow(_ fields: [String?], to b: inout [UInt8]) {
        for (i, field) in fields.enumerated() {
            if i > 0 { b.append(UInt8(ascii: ",")) }
            if let field { appendField(field, to: &b) }
        }
        b.append(0x0A)
    }

    /// One field, quoted only when it holds a comma, a quote or a line break.
    static func appendField(_ field: String, to b: inout [UInt8]) {
        var text = field
        text.withUTF8 { appendField(utf8: $0, to: &b) }
    }

    /// A field's UTF-8 bytes, scanned and, when plain, copied as one buffer.
    static func appendField(utf8 bytes: UnsafeBufferPointer<UInt8>, to b: inout [UInt8]) {
        guard bytes.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else {
            b.append(contentsOf: bytes)
            return
        }
        b.append(UInt8(ascii: "\""))
        for c in bytes {
            if c == UInt8(ascii: "\"") { b.append(c) }
            b.append(c)
        }
        b.append(UInt8(ascii: "\""))
    }

    /// Rows 0..<count formatted straight into bytes by `row` on the workers, written in order.
    func formattedRows(_ count: Int, pool: WorkerPool, _ row: (Int, inout [UInt8]) -> Void) {
        ParallelRows.write(count, pool: pool, sink: { out.write(bytes: $0) }, row)
    }

    func close() throws { try out.close() }
}
