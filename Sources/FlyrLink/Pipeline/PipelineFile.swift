import Foundation
import TOMLKit

/// A run described in a TOML file under `pipelines/`: the same keys as the command line
/// (`max_distance` for `--max-distance`), field overrides in `[address_fields]` and
/// `[building_fields]`. Relative paths are relative to the file's own directory.
public enum PipelineFile {
    static let pathKeys: Set<String> = ["buildings", "addresses", "territory", "out", "link_model"]
    static let stringKeys: Set<String> = ["buildings", "buildings_layer", "buildings_crs", "addresses", "addresses_layer",
                                          "addresses_crs", "territory", "territory_layer", "out", "campaign", "units", "only", "matcher", "parquet_reader",
                                          "link_model"]
    static let knownKeys = stringKeys.union(["max_distance", "threads", "overwrite", "allow_empty", "address_fields", "building_fields", "name", "description"])

    public static func load(_ path: String) throws(InputError) -> RunSettings {
        let table = try parse(path)
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        return try settings(from: table, base: base, file: path)
    }

    /// The file's TOML table; an unreadable file or invalid TOML is one line naming the file and position.
    static func parse(_ path: String) throws(InputError) -> TOMLTable {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw InputError("cannot read pipeline file \(path)")
        }
        do {
            return try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            throw InputError("\(path):\(e.source.begin.line):\(e.source.begin.column): invalid TOML: \(e.description)")
        } catch {
            throw InputError("\(path): invalid TOML: \(error)")
        }
    }

    static func settings(from table: TOMLTable, base: URL, file: String) throws(InputError) -> RunSettings {
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
        var s = RunSettings()
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
        s.matcher = try string("matcher")
        s.parquetReader = try string("parquet_reader")
        s.linkModel = try string("link_model")
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
        if let v = table["threads"] {
            guard let n = v.int else { throw InputError("\(file): 'threads' must be an integer") }
            s.threads = n
        }
        s.addressFields = try fields("address_fields")
        s.buildingFields = try fields("building_fields")
        return s
    }
}
