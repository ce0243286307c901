import Foundation

/// A CSV table of an output directory (links.csv, rejects.csv) read back as flyr-link wrote it:
/// its header, every row with the header's fields, the last one ended by a line break, and as
/// many rows as report.json counts. Anything else is one error naming the file and what is wrong:
/// a page drawn from part of a table would say what the run did not.
enum OutputCSVFile {
    /// Calls `body` with each row after the header (mapped, not copied: its pages handed back as
    /// the rows pass them); `rows`: how many there must be.
    static func forEachRow(_ path: String, header: [String], rows expected: Int, _ body: (CSVRows.Row) throws -> Void) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw DamagedOutput.error(path, "is missing") }
        let file = try MappedFile(path: path)
        let bytes = file.bytes
        guard bytes.last == 0x0A else { throw DamagedOutput.error(path, bytes.isEmpty ? "is empty" : "is cut short (its last line has no line break)") }
        var rows = -1, released = 0
        try CSVRows.forEachRow(bytes) { row in
            rows += 1
            guard rows > 0 else {
                guard row.count == header.count, (0..<row.count).allSatisfy({ row[$0] == header[$0] }) else {
                    throw DamagedOutput.error(path, "does not begin with flyr-link's header (\(header.joined(separator: ",")))")
                }
                return
            }
            guard row.count == header.count else { throw DamagedOutput.error(path, "row \(rows) has \(row.count) fields, not \(header.count)") }
            try body(row)
            if let start = row.spans.first?.start, start - released >= 16 << 20 {
                ConsumedPages.drop(bytes.assumingMemoryBound(to: UInt8.self), below: start)
                released = start
            }
        }
        guard rows == expected else { throw DamagedOutput.error(path, "holds \(max(rows, 0)) rows, report.json counts \(expected)") }
    }

}

/// An output file that is not as flyr-link wrote it: one line naming it, what is wrong, and what to do.
enum DamagedOutput {
    static func error(_ path: String, _ what: String) -> InputError {
        InputError("\(path) \(what): the output is not as flyr-link wrote it; write it again with flyr-link run")
    }
}
