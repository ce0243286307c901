/// `diff.json`'s bytes written directly, identical to JSONEncoder's (pretty, sorted snake_case keys,
/// slashes unescaped; a test holds them equal), without a Foundation value tree per link.
struct SnapshotDiffJSON {
    private(set) var bytes: [UInt8] = []

    init(_ diff: SnapshotDiff) {
        object(depth: 0) { w, d in
            w.member("addresses", first: true, d) { $0.features(diff.addresses, $1) }
            w.member("buildings", d) { $0.features(diff.buildings, $1) }
            w.member("campaign_id", d) { w, _ in w.string(diff.campaignID) }
            w.member("from", d) { w, _ in w.string(diff.from) }
            w.member("links", d) { w, d in
                w.object(depth: d) { w, d in
                    w.member("added", first: true, d) { $0.array(diff.links.added, $1) { $0.entry($1, $2) } }
                    w.member("moved", d) { $0.array(diff.links.moved, $1) { $0.move($1, $2) } }
                    w.member("removed", d) { $0.array(diff.links.removed, $1) { $0.entry($1, $2) } }
                    w.member("unchanged", d) { w, _ in w.int(diff.links.unchanged) }
                }
            }
            w.member("to", d) { w, _ in w.string(diff.to) }
        }
    }

    private mutating func features(_ f: SnapshotDiff.Features, _ depth: Int) {
        object(depth: depth) { w, d in
            w.member("added", first: true, d) { $0.array(f.added, $1) { w, id, _ in w.string(id) } }
            w.member("changed", d) { $0.array(f.changed, $1) { w, id, _ in w.string(id) } }
            w.member("removed", d) { $0.array(f.removed, $1) { w, id, _ in w.string(id) } }
            w.member("unchanged", d) { w, _ in w.int(f.unchanged) }
        }
    }

    private mutating func entry(_ e: SnapshotDiff.LinkEntry, _ depth: Int) {
        object(depth: depth) { w, d in
            w.member("address_id", first: true, d) { w, _ in w.string(e.addressID) }
            w.member("building_id", d) { w, _ in w.string(e.buildingID) }
            w.member("link_id", d) { w, _ in w.string(e.linkID) }
        }
    }

    private mutating func move(_ m: SnapshotDiff.LinkMove, _ depth: Int) {
        object(depth: depth) { w, d in
            w.member("address_id", first: true, d) { w, _ in w.string(m.addressID) }
            w.member("from_building_id", d) { w, _ in w.string(m.fromBuildingID) }
            w.member("from_link_id", d) { w, _ in w.string(m.fromLinkID) }
            w.member("to_building_id", d) { w, _ in w.string(m.toBuildingID) }
            w.member("to_link_id", d) { w, _ in w.string(m.toLinkID) }
        }
    }

    // MARK: JSONEncoder's pretty printing: two spaces a level, `"key" : value`, an empty array as `[`, an empty line, `]`.

    private mutating func newline(_ depth: Int) {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// An object at `depth`; `members` writes its members (keys in sorted order) one level deeper.
    private mutating func object(depth: Int, _ members: (inout Self, Int) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        members(&self, depth + 1)
        newline(depth)
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func member(_ key: String, first: Bool = false, _ depth: Int, _ value: (inout Self, Int) -> Void) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        newline(depth)
        string(key)
        bytes.append(contentsOf: " : ".utf8)
        value(&self, depth)
    }

    private mutating func array<T>(_ items: [T], _ depth: Int, _ item: (inout Self, T, Int) -> Void) {
        bytes.append(UInt8(ascii: "["))
        if items.isEmpty { bytes.append(0x0A) }
        for (k, x) in items.enumerated() {
            if k > 0 { bytes.append(UInt8(ascii: ",")) }
            newline(depth + 1)
            item(&self, x, depth + 1)
        }
        newline(depth)
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func string(_ s: String?) {
        guard var s else { return bytes.append(contentsOf: "null".utf8) }
        bytes.append(UInt8(ascii: "\""))
        s.withUTF8 { JSONText.appendEscaped($0, to: &bytes, asJSONEncoder: true) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func int(_ n: Int) { bytes.append(contentsOf: String(n).utf8) }
}
