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
        // The four files are scanned at once, one per core.
        let jobs: [(URL?, String, [String])] = [(old, "buildings.geojson.gz", buildingKeys), (new, "buildings.geojson.gz", buildingKeys),
                                                (old, "addresses.geojson.gz", addressKeys), (new, "addresses.geojson.gz", addressKeys)]
        let results = ResultSlots<Result<[String: [UInt8]], Error>>.collect(jobs.count) { slots in
            DispatchQueue.concurrentPerform(iterations: jobs.count) { k in
                let (dir, name, keys) = jobs[k]
                slots.set(k, Result { try dir.map { try digests($0.appendingPathComponent(name).path, keys: keys) } ?? [:] })
            }
        }
        diff.buildings = compare(try results[0].get(), try results[1].get())
        diff.addresses = compare(try results[2].get(), try results[3].get())
        return diff
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

    /// Feature id → SHA-256 (the 32 bytes) of its geometry and the named properties, from a gzip GeoJSON file.
    /// The file is scanned in place (GeoJSONScanner), not built into Foundation objects: both
    /// versions' files are written by the same writer, so a feature's geometry and values are
    /// compared as the JSON text they were written as.
    static func digests(_ path: String, keys: [String]) throws -> [String: [UInt8]] {
        let bytes = try Gzip.decompressFile(path)
        let result: Result<[String: [UInt8]], GeoJSONScanner.Failure> = bytes.withUnsafeBytes { buffer in
            Result { () throws(GeoJSONScanner.Failure) in try digests(of: buffer, keys: keys) }
        }
        switch result {
        case .success(let digests): return digests
        case .failure(let failure): throw OutputError("\(path) is not a GeoJSON FeatureCollection: \(failure.description)")
        }
    }

    static func digests(of bytes: UnsafeRawBufferPointer, keys: [String]) throws(GeoJSONScanner.Failure) -> [String: [UInt8]] {
        var s = GeoJSONScanner(bytes)
        var out: [String: [UInt8]] = [:]
        var sawFeatures = false
        if try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) {
            repeat {
                let member = try s.string()
                try s.expect(UInt8(ascii: ":"))
                guard member == "features" else { try s.skipValue(); continue }
                sawFeatures = true
                guard try s.open(UInt8(ascii: "["), UInt8(ascii: "]")) else { continue }
                repeat {
                    try featureDigest(&s, keys: keys, into: &out)
                } while try s.more(closer: UInt8(ascii: "]"))
            } while try s.more(closer: UInt8(ascii: "}"))
        }
        guard sawFeatures else { throw s.fail("no features") }
        s.skipSpace()
        guard s.atEnd else { throw s.fail("text after the FeatureCollection") }
        return out
    }

    /// One feature: its id (the member, else the `id` property; strings only) → SHA-256 of the
    /// geometry's text and each key's value text, `null` for a missing one.
    private static func featureDigest(_ s: inout GeoJSONScanner, keys: [String],
                                      into out: inout [String: [UInt8]]) throws(GeoJSONScanner.Failure) {
        var id: String?, propertyID: String?
        var geometry: Range<Int>?
        var values = [Range<Int>?](repeating: nil, count: keys.count)
        func text(_ s: inout GeoJSONScanner) throws(GeoJSONScanner.Failure) -> Range<Int> {
            s.skipSpace()
            let start = s.i
            try s.skipValue()
            return start..<s.i
        }
        func stringValue(_ s: inout GeoJSONScanner) throws(GeoJSONScanner.Failure) -> String? {
            if try s.peek() == UInt8(ascii: "\"") { return try s.string() }
            try s.skipValue()
            return nil
        }
        guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { return }
        repeat {
            let member = try s.string()
            try s.expect(UInt8(ascii: ":"))
            switch member {
            case "id": id = try stringValue(&s)
            case "geometry": geometry = try text(&s)
            case "properties" where try s.peek() == UInt8(ascii: "{"):
                guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { break }
                repeat {
                    let key = try s.string()
                    try s.expect(UInt8(ascii: ":"))
                    let span = try text(&s)
                    if key == "id" {
                        var v = GeoJSONScanner(s.bytes)
                        v.i = span.lowerBound
                        propertyID = try stringValue(&v)
                    }
                    if let k = keys.firstIndex(of: key) { values[k] = span }
                } while try s.more(closer: UInt8(ascii: "}"))
            default: try s.skipValue()
            }
        } while try s.more(closer: UInt8(ascii: "}"))
        guard let featureID = id ?? propertyID else { return }
        var sha = SHA256()
        let null = Array("null".utf8), separator: [UInt8] = [0x1F]
        for span in [geometry] + values {
            if let span { sha.update(UnsafeRawBufferPointer(rebasing: s.bytes[span])) } else { sha.update(null) }
            sha.update(separator)
        }
        out[featureID] = sha.finish()
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
