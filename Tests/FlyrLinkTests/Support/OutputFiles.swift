import Foundation
@testable import FlyrLink

/// Reading a run's output files back in tests.
enum OutputFiles {
    /// Every file under `dir` (hidden ones too) by relative path, with its bytes.
    static func everyFile(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let fm = FileManager.default
        for case let relative as String in fm.enumerator(atPath: dir.path)! {
            var isDir: ObjCBool = false
            let url = dir.appendingPathComponent(relative)
            if fm.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue { out[relative] = try Data(contentsOf: url) }
        }
        return out
    }

    static func csv(_ path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows = CSVText.parse(text)
        guard !rows.isEmpty else { return [] }
        let header = rows.removeFirst()
        return rows.map { Dictionary(uniqueKeysWithValues: zip(header, $0 + Array(repeating: "", count: max(0, header.count - $0.count)))) }
    }

    static func geojson(_ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return obj?["features"] as? [[String: Any]] ?? []
    }

    static func properties(_ feature: [String: Any]) -> [String: Any] {
        feature["properties"] as? [String: Any] ?? [:]
    }

    /// Every file of an output directory, with report.json's `run` section (wall times, threads)
    /// removed, and report.html's copy of it (between `<!--run-->` and `<!--/run-->`).
    static func comparableContents(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
            var data = try Data(contentsOf: dir.appendingPathComponent(name))
            if name == "report.json", var obj = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
                obj["run"] = nil
                data = try JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys])
            }
            if name == "report.html" { data = Data(ReportText.withoutRunSection(String(decoding: data, as: UTF8.self)).utf8) }
            out[name] = data
        }
        return out
    }
}

/// A small RFC 4180 reader for the tests.
enum CSVText {
    static func parse(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.append("\""); chars = chars.dropFirst() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\n" || c == "\r\n" {  // (Swift reads CRLF as one Character)
                row.append(field); field = ""
                rows.append(row); row = []
            } else if c != "\r" {
                field.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}

/// report.html's text apart from its wall times.
enum ReportText {
    static func withoutRunSection(_ page: String) -> String {
        guard let start = page.range(of: "<!--run-->"), let end = page.range(of: "<!--/run-->", range: start.upperBound..<page.endIndex) else { return page }
        return String(page[..<start.lowerBound]) + String(page[end.upperBound...])
    }
}
