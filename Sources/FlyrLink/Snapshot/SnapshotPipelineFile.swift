import Foundation
import TOMLKit

/// Several campaigns' snapshots in one TOML file under `pipelines/`:
///
/// ```toml
/// root = "../out/snapshots"            # snapshot root (relative to this file)
/// buildings = "../data/helsinki/buildings.geojson"
/// addresses = "../data/helsinki/addresses.geojson"
/// roads = "roads.geojson"               # optional, also roads_layer
/// keep = 5                              # optional: prune to the newest 5 versions
/// sticky_margin = 2                     # optional, metres
/// max_distance = 40                     # any key of a run pipeline file
///
/// [[campaigns]]
/// id = "0f9a…"                          # the campaign UUID
/// territory = "territories/north.geojson"
/// # any other key here overrides the top level for this campaign
/// ```
public enum SnapshotPipelineFile {
    static let snapshotKeys: Set<String> = ["root", "roads", "roads_layer", "keep", "sticky_margin", "campaigns"]
    static let campaignOnlyKeys: Set<String> = ["id"]

    public static func load(_ path: String) throws(InputError) -> [SnapshotRequest] {
        let table = try PipelineFile.parse(path)
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        let top = try Level(table, base: base, file: path, where: "")
        guard let list = table["campaigns"]?.array, !list.isEmpty else {
            throw InputError("\(path): no campaigns: add [[campaigns]] tables with an id and a territory")
        }
        var requests: [SnapshotRequest] = []
        for (k, item) in list.enumerated() {
            guard let t = item.table else { throw InputError("\(path): campaigns[\(k)] must be a table") }
            let level = try Level(t, base: base, file: path, where: "campaigns[\(k)].")
            guard let id = t["id"]?.string else { throw InputError("\(path): campaigns[\(k)] has no id") }
            guard let root = level.root ?? top.root else { throw InputError("\(path): no root: add root = \"DIR\"") }
            var r = SnapshotRequest(campaign: id, root: root, settings: level.settings.merged(over: top.settings))
            let roads = level.roads ?? top.roads
            r.roads = roads.map { SourceSpec.parse($0, layer: level.roadsLayer ?? top.roadsLayer) }
            r.keep = level.keep ?? top.keep
            r.stickyMargin = level.stickyMargin ?? top.stickyMargin ?? LinkOptions.defaultStickyMargin
            requests.append(r)
        }
        return requests
    }

    /// The keys of one level (the file, or one campaign): snapshot keys here, the rest as a run's.
    struct Level {
        var settings: RunRequest
        var root: String?
        var roads: String?
        var roadsLayer: String?
        var keep: Int?
        var stickyMargin: Double?

        init(_ table: TOMLTable, base: URL, file: String, where prefix: String) throws(InputError) {
            let rest = TOMLTable()
            for (key, value) in table where !snapshotKeys.contains(key) && !campaignOnlyKeys.contains(key) {
                rest[key] = value
            }
            settings = try PipelineFile.settings(from: rest, base: base, file: file)
            func path(_ key: String) throws(InputError) -> String? {
                guard let v = table[key] else { return nil }
                guard let s = v.string else { throw InputError("\(file): '\(prefix)\(key)' must be a string") }
                if s.hasPrefix("/") || s.hasPrefix("PG:") || s.contains("://") { return s }
                return base.appendingPathComponent(s).standardizedFileURL.path
            }
            root = try path("root")
            roads = try path("roads")
            roadsLayer = table["roads_layer"]?.string
            if let v = table["keep"] {
                guard let n = v.int else { throw InputError("\(file): '\(prefix)keep' must be an integer") }
                keep = n
            }
            if let v = table["sticky_margin"] {
                guard let d = v.double ?? v.int.map(Double.init) else { throw InputError("\(file): '\(prefix)sticky_margin' must be a number") }
                stickyMargin = d
            }
        }
    }
}
