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

    /// A version's links: address id → (building id, link id), as `SnapshotFiles.readLinks` reads them.
    typealias LinkTable = [String: (building: String, link: String)]
    /// Feature id → digest (`FeatureDigests`), of the previous version and of the new one.
    typealias LayerDigests = (old: FeatureDigests.Table, new: FeatureDigests.Table)

    /// Compares two version directories (`from` nil: everything in `to` is added).
    public static func compute(from old: URL?, to new: URL, campaignID: String? = nil) throws -> SnapshotDiff {
        let oldLinks = try old.map { try SnapshotFiles.readLinks($0.appendingPathComponent("links.csv").path) } ?? [:]
        let newLinks = try SnapshotFiles.readLinks(new.appendingPathComponent("links.csv").path)
        let oldDigests = try old.map { (dir) throws(OutputError) in try FeatureDigests.ofVersion(dir) } ?? (buildings: [:], addresses: [:])
        let newDigests = try FeatureDigests.ofVersion(new)
        return make(campaignID: campaignID, from: old.map(versionName), to: versionName(new), links: (oldLinks, newLinks),
                    buildings: (oldDigests.buildings, newDigests.buildings), addresses: (oldDigests.addresses, newDigests.addresses))
    }

    /// The diff of two versions' links and feature digests (a first version: both old ones empty).
    static func make(campaignID: String?, from: String?, to: String, links: (old: LinkTable, new: LinkTable),
                     buildings: LayerDigests, addresses: LayerDigests) -> SnapshotDiff {
        var diff = SnapshotDiff(campaignID: campaignID, from: from, to: to)
        // The links, the buildings and the addresses compared at once (each sorts its ids).
        let parts = ResultSlots<(links: Links?, features: Features?)>.collect(3) { slots in
            DispatchQueue.concurrentPerform(iterations: 3) { k in
                switch k {
                case 0: slots.set(k, (compareLinks(links), nil))
                case 1: slots.set(k, (nil, compare(buildings.old, buildings.new)))
                default: slots.set(k, (nil, compare(addresses.old, addresses.new)))
                }
            }
        }
        diff.links = parts[0].links!
        diff.buildings = parts[1].features!
        diff.addresses = parts[2].features!
        return diff
    }

    static func compareLinks(_ links: (old: LinkTable, new: LinkTable)) -> Links {
        var out = Links()
        let (oldLinks, newLinks) = links
        for (address, n) in newLinks.sorted(by: { $0.key < $1.key }) {
            if let o = oldLinks[address] {
                if o.building == n.building {
                    out.unchanged += 1
                } else {
                    out.moved.append(LinkMove(addressID: address, fromBuildingID: o.building, toBuildingID: n.building,
                                         fromLinkID: o.link, toLinkID: n.link))
                }
            } else {
                out.added.append(LinkEntry(addressID: address, buildingID: n.building, linkID: n.link))
            }
        }
        for (address, o) in oldLinks.sorted(by: { $0.key < $1.key }) where newLinks[address] == nil {
            out.removed.append(LinkEntry(addressID: address, buildingID: o.building, linkID: o.link))
        }
        return out
    }

    static func versionName(_ url: URL) -> String {
        url.resolvingSymlinksInPath().lastPathComponent
    }

    static func compare<Digest: Equatable>(_ old: [String: Digest], _ new: [String: Digest]) -> Features {
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

    func write(to directory: URL) throws {
        var bytes = SnapshotDiffJSON(self).bytes
        bytes.append(0x0A)
        try SnapshotFiles.write(Data(bytes), to: directory.appendingPathComponent(Self.fileName).path)
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
