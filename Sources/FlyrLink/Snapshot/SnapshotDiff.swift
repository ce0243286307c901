import Foundation

/// What changed from one snapshot version to the next (`diff.json`): links added, removed and
/// moved (keyed by address), and buildings and addresses added, removed and changed. A building
/// changes when its footprint, height or levels do; an address when its location or canonical
/// fields do (not when only its link does: that is a moved link).
public struct SnapshotDiff: Codable, Sendable, Equatable {
    public struct LinkEntry: Codable, Sendable, Equatable {
        public var addressID: String
        public var buildingID: String
        public var linkID: String
    }

    public struct LinkMove: Codable, Sendable, Equatable {
        public var addressID: String
        public var fromBuildingID: String
        public var toBuildingID: String
        public var fromLinkID: String
        public var toLinkID: String
    }

    public struct Links: Codable, Sendable, Equatable {
        public var added: [LinkEntry] = []
        public var removed: [LinkEntry] = []
        public var moved: [LinkMove] = []
        public var unchanged = 0
    }

    public struct Features: Codable, Sendable, Equatable {
        public var added: [String] = []
        public var removed: [String] = []
        public var changed: [String] = []
        public var unchanged = 0
    }

    public var campaignID: String?
    public var from: String?
    public var to: String
    public var links = Links()
    public var buildings = Features()
    public var addresses = Features()

    static let fileName = "diff.json"

    enum CodingKeys: String, CodingKey { case campaignID, from, to, links, buildings, addresses }

    /// Like the synthesized one, but `from` (and the campaign) are written as null, not left out.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(campaignID, forKey: .campaignID)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(links, forKey: .links)
        try c.encode(buildings, forKey: .buildings)
        try c.encode(addresses, forKey: .addresses)
    }

    public var isEmpty: Bool {
        links.added.isEmpty && links.removed.isEmpty && links.moved.isEmpty
            && buildings.added.isEmpty && buildings.removed.isEmpty && buildings.changed.isEmpty
            && addresses.added.isEmpty && addresses.removed.isEmpty && addresses.changed.isEmpty
    }

    /// Compares two version directories (`from` nil: everything in `to` is added).
    public static func compute(from old: URL?, to new: URL, campaignID: String? = nil) throws -> SnapshotDiff {
        var diff = SnapshotDiff(campaignID: campaignID, from: old.map(versionName), to: versionName(new))
        let oldLinks = try old.map { try SnapshotFiles.readLinks($0.appendingPathComponent("links.csv").path) } ?? [:]
        let newLinks = try SnapshotFiles.readLinks(new.appendingPathComponent("links.csv").path)
        for (address, n) in newLinks.sorted(by: { $0.key < $1.key }) {
            if let o = oldLinks[address] {
                if o.building == n.building {
                    diff.links.unchanged += 1
                } else {
                    diff.links.moved.append(LinkMove(addressID: address, fromBuildingID: o.building, toBuildingID: n.building,
                                                     fromLinkID: o.link, toLinkID: n.link))
                }
            } else {
                diff.links.added.append(LinkEntry(addressID: address, buildingID: n.building, linkID: n.link))
            }
        }
        for (address, o) in oldLinks.sorted(by: { $0.key < $1.key }) where newLinks[address] == nil {
            diff.links.removed.append(LinkEntry(addressID: address, buildingID: o.building, linkID: o.link))
        }
        let buildingKeys = ["height_m", "levels"]
        let addressKeys = AddressField.allCases.map(\.rawValue)
        diff.buildings = try compare(old.map { try digests($0.appendingPathComponent("buildings.geojson.gz").path, keys: buildingKeys) } ?? [:],
                                     try digests(new.appendingPathComponent("buildings.geojson.gz").path, keys: buildingKeys))
        diff.addresses = try compare(old.map { try digests($0.appendingPathComponent("addresses.geojson.gz").path, keys: addressKeys) } ?? [:],
                                     try digests(new.appendingPathComponent("addresses.geojson.gz").path, keys: addressKeys))
        return diff
    }

    static func versionName(_ url: URL) -> String {
        url.resolvingSymlinksInPath().lastPathComponent
    }

    static func compare(_ old: [String: String], _ new: [String: String]) -> Features {
        var f = Features()
        for (id, digest) in new.sorted(by: { $0.key < $1.key }) {
            switch old[id] {
            case nil: f.added.append(id)
            case digest?: f.unchanged += 1
            default: f.changed.append(id)
            }
        }
        f.removed = old.keys.filter { new[$0] == nil }.sorted()
        return f
    }

    /// Feature id → SHA-256 of its geometry and the named properties, from a gzip GeoJSON file.
    static func digests(_ path: String, keys: [String]) throws -> [String: String] {
        let bytes = try Gzip.decompressFile(path)
        guard let doc = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
              let features = doc["features"] as? [[String: Any]] else { throw OutputError("\(path) is not a GeoJSON FeatureCollection") }
        var out: [String: String] = [:]
        for f in features {
            let props = f["properties"] as? [String: Any] ?? [:]
            guard let id = (f["id"] as? String) ?? (props["id"] as? String) else { continue }
            var material: [String: Any] = ["geometry": f["geometry"] ?? NSNull()]
            for k in keys { material[k] = props[k] ?? NSNull() }
            let data = try JSONSerialization.data(withJSONObject: material, options: [.sortedKeys])
            out[id] = SHA256.hash([UInt8](data))
        }
        return out
    }

    func write(to directory: URL) throws {
        let e = SnapshotManifest.encoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        var data = try e.encode(self)
        data.append(0x0A)
        try SnapshotFiles.write(data, to: directory.appendingPathComponent(Self.fileName).path)
    }

    /// A few lines for the terminal.
    public func summary(limit: Int = 20) -> String {
        var lines = ["\(from ?? "(nothing)") → \(to)",
                     "  links: \(links.added.count) added, \(links.removed.count) removed, \(links.moved.count) moved, \(links.unchanged) unchanged",
                     "  buildings: \(buildings.added.count) added, \(buildings.removed.count) removed, \(buildings.changed.count) changed, \(buildings.unchanged) unchanged",
                     "  addresses: \(addresses.added.count) added, \(addresses.removed.count) removed, \(addresses.changed.count) changed, \(addresses.unchanged) unchanged"]
        for m in links.moved.prefix(limit) { lines.append("  moved: address \(m.addressID): building \(m.fromBuildingID) → \(m.toBuildingID)") }
        if links.moved.count > limit { lines.append("  … \(links.moved.count - limit) more moved links in diff.json") }
        return lines.joined(separator: "\n")
    }
}
