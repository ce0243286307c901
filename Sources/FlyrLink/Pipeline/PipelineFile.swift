import Foundation
import TOMLKit

/// A run described in a TOML file under `pipelines/`: the same keys as the command line
/// (`max_distance` for `--max-distance`), field overrides in `[address_fields]` and
/// `[building_fields]`. Relative paths are relative to the file's own directory.
public enum PipelineFile {
    static let pathKeys: Set<String> = ["buildings", "addresses", "territory", "out", "link_model"]
    static let stringKeys: Set<String> = ["buildings", "buildings_layer", "buildings_crs", "addresses", "addresses_layer",
                                          "addresses_crs", "territory", "territory_layer", "out", "campaign", "units", "only", "matcher", "parquet_reader",
                                          "link_model", "height_unit", "format"]
    static let knownKeys = stringKeys.union(["max_distance", "threads", "overwrite", "allow_empty", "html", "address_fields", "building_fields", "name", "description"])
        .union(remoteKeys)
    /// `RemoteReadLimits`' keys (whole numbers).
    static let remoteKeys: Set<String> = ["remote_timeout", "remote_min_rate", "remote_rate_window"]

    public static func load(_ path: String) throws(InputError) -> RunRequest {
        let table = try parse(path)
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try settings(from: table, base: base, file: path)
    }

    /// The file's TOML table; an unreadable file or invalid TOML is one line naming the file and position.
    static func parse(_ path: String) throws(InputError) -> TOMLTable {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw InputError("cannot read pipeline file \(path)")
        }
        if let (line, column, what) = tomlAbortCheck(text) {
            throw InputError("\(path):\(line):\(column): invalid TOML: \(what)")
        }
        guard parsesWithoutAborting(text) else {
            throw InputError("\(path): invalid TOML (the TOML parser stopped on it: check brackets, braces and commas)")
        }
        do {
            return try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw InputError("\(path):\(e.source.begin.line):\(e.source.begin.column): invalid TOML: \(e.description)")
        } catch {
            throw InputError("\(path): invalid TOML: \(error)")
        }
    }

    /// toml++ asserts (and so aborts the process) on more malformed text than `tomlAbortCheck`
    /// finds (`a = [}`, found by the pipeline fuzz target), its assertions being on in release
    /// builds: the text is parsed once in a child process first. False when that child did not
    /// end by itself (parsed, or threw a parse error); true when it could not be started.
    static func parsesWithoutAborting(_ text: String) -> Bool {
        let pid = fork()
        if pid == 0 {
            signal(SIGABRT, SIG_DFL)  // no crash report or backtrace from the child,
            let null = open("/dev/null", O_WRONLY)  // nor the assertion's message
            if null >= 0 { dup2(null, 2) }
            let parsed = (try? TOMLTable(string: text)) != nil
            _exit(parsed ? 0 : 1)
        }
        guard pid > 0 else { return true }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signalled = status & 0x7F != 0
        let code = (status >> 8) & 0xFF
        return !signalled && (code == 0 || code == 1)
    }

    /// Text that TOMLKit's parser (toml++) would not reject but abort on (its assertions stay on in
    /// release builds; found by the pipeline fuzz target): a NUL (the text is handed over as a C
    /// string, cut there), and a table header whose key starts with neither a key character nor a
    /// quote (`[{`, `[` at the end of a line). Nil when there is neither; else line, column (1-based)
    /// and what. Multi-line strings and comments are skipped, so text inside them is not judged.
    static func tomlAbortCheck(_ text: String) -> (Int, Int, String)? {
        let b = Array(text.utf8)
        func isKeyStart(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
        }
        func starts(_ word: String, at i: Int) -> Bool {
            let w = Array(word.utf8)
            return i + w.count <= b.count && Array(b[i..<(i + w.count)]) == w
        }
        var line = 1, lineStart = 0, i = 0
        var multiLine: String?  // the closing delimiter of the multi-line string we are in
        var atLineStart = true
        while i < b.count {
            let c = b[i]
            if c == 0 { return (line, i - lineStart + 1, "NUL character") }
            if c == 0x0A { line += 1; lineStart = i + 1; atLineStart = multiLine == nil; i += 1; continue }
            if let close = multiLine {
                if c == UInt8(ascii: "\\"), close == "\"\"\"" { i += 2; continue }
                if starts(close, at: i) { multiLine = nil; i += 3 } else { i += 1 }
                continue
            }
            if c == 0x20 || c == 0x09 || c == 0x0D { i += 1; continue }
            if atLineStart && c == UInt8(ascii: "[") {
                var k = i + 1
                if k < b.count && b[k] == UInt8(ascii: "[") { k += 1 }
                while k < b.count && (b[k] == 0x20 || b[k] == 0x09) { k += 1 }
                if k < b.count && b[k] != UInt8(ascii: "]") && !isKeyStart(b[k]) {
                    return (line, k - lineStart + 1, "a table header's key must start with a letter, digit, '_', '-' or a quote")
                }
            }
            atLineStart = false
            if c == UInt8(ascii: "#") {
                while i < b.count && b[i] != 0x0A { if b[i] == 0 { return (line, i - lineStart + 1, "NUL character") }; i += 1 }
                continue
            }
            if starts("\"\"\"", at: i) { multiLine = "\"\"\""; i += 3; continue }
            if starts("'''", at: i) { multiLine = "'''"; i += 3; continue }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < b.count && b[i] != c && b[i] != 0x0A {
                    if b[i] == 0 { return (line, i - lineStart + 1, "NUL character") }
                    i += (c == UInt8(ascii: "\"") && b[i] == UInt8(ascii: "\\")) ? 2 : 1
                }
                if i < b.count && b[i] == c { i += 1 }
                continue
            }
            i += 1
        }
        return nil
    }

    static func settings(from table: TOMLTable, base: URL, file: String) throws(InputError) -> RunRequest {
        for key in table.keys.sorted() where !knownKeys.contains(key) {
            throw InputError("\(file): unknown key '\(key)' (known: \(knownKeys.sorted().joined(separator: ", ")))")
        }
        func string(_ key: String) throws(InputError) -> String? {
            guard let v = table[key] else { return nil }
            guard let s = v.string else { throw InputError("\(file): '\(key)' must be a string") }
            if pathKeys.contains(key), !s.hasPrefix("/"), !s.hasPrefix("PG:"), !s.contains("://") {
                return base.appendingPathComponent(s).standardizedFileURL.path
            }
            return s
        }
        func fields(_ key: String) throws(InputError) -> [String: String] {
            guard let v = table[key] else { return [:] }
            guard let t = v.table else { throw InputError("\(file): [\(key)] must be a table of field = \"source name\"") }
            var out: [String: String] = [:]
            for (k, value) in t {
                guard let s = value.string else { throw InputError("\(file): \(key).\(k) must be a string") }
                out[k] = s
            }
            return out
        }
        var s = RunRequest()
        s.buildings = try string("buildings")
        s.buildingsLayer = try string("buildings_layer")
        s.buildingsCRS = try string("buildings_crs")
        s.addresses = try string("addresses")
        s.addressesLayer = try string("addresses_layer")
        s.addressesCRS = try string("addresses_crs")
        s.territory = try string("territory")
        s.territoryLayer = try string("territory_layer")
        s.out = try string("out")
        s.campaign = try string("campaign")
        s.units = try string("units")
        s.only = try string("only")
        s.format = try string("format")
        s.matcher = try string("matcher")
        s.parquetReader = try string("parquet_reader")
        s.linkModel = try string("link_model")
        s.heightUnit = try string("height_unit")
        if let v = table["max_distance"] {
            guard let d = v.double ?? v.int.map(Double.init) else { throw InputError("\(file): 'max_distance' must be a number") }
            s.maxDistance = d
        }
        if let v = table["overwrite"] {
            guard let b = v.bool else { throw InputError("\(file): 'overwrite' must be true or false") }
            s.overwrite = b
        }
        if let v = table["allow_empty"] {
            guard let b = v.bool else { throw InputError("\(file): 'allow_empty' must be true or false") }
            s.allowEmpty = b
        }
        if let v = table["html"] {
            guard let b = v.bool else { throw InputError("\(file): 'html' must be true or false") }
            s.html = b
        }
        if let v = table["threads"] {
            guard let n = v.int else { throw InputError("\(file): 'threads' must be an integer") }
            s.threads = n
        }
        for key in remoteKeys.sorted() {
            guard let v = table[key] else { continue }
            guard let n = v.int else { throw InputError("\(file): '\(key)' must be a whole number") }
            switch key {
            case "remote_timeout": s.remoteTimeout = n
            case "remote_min_rate": s.remoteMinRate = n
            default: s.remoteRateWindow = n
            }
        }
        s.addressFields = try fields("address_fields")
        s.buildingFields = try fields("building_fields")
        return s
    }
}
