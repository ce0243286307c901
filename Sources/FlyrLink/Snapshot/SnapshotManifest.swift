import Foundation

/// `manifest.json` of a snapshot version: what it was made from (campaign, territory fingerprint,
/// input fingerprints, tool version, options), what it holds (feature counts) and the SHA-256 of
/// every other file in the version. Written last: a version with a manifest is complete.
public struct SnapshotManifest: Codable, Sendable, Equatable {
    public struct Input: Codable, Sendable, Equatable {
        public var source: String
        public var layer: String?
        public var crs: String?
        /// SHA-256 of the file's bytes; nil for sources that are not files (PG:, URLs).
        public var sha256: String?
        public var bytes: Int?
    }

    public struct TerritoryInfo: Codable, Sendable, Equatable {
        public var source: String
        /// SHA-256 of the territory's polygons as read (lon/lat, 7 decimals): the same area, however stored.
        public var sha256: String
        public var polygons: Int
    }

    public struct Counts: Codable, Sendable, Equatable {
        public var buildings = 0
        public var addresses = 0
        public var links = 0
        public var unlinked = 0
        public var units = 0
        public var rejects = 0
        public var roads: Int?
        public init() {}
    }

    public struct FileEntry: Codable, Sendable, Equatable {
        public var sha256: String
        public var bytes: Int
    }

    public var format = "flyr-link-snapshot/1"
    public var campaignID: String
    public var version: String
    public var previousVersion: String?
    public var createdAt: String
    public var tool = "flyr-link"
    public var toolVersion = FlyrLinkVersion.string
    /// SHA-256 over the input fingerprints, territory, options and tool version: a regeneration with
    /// the same fingerprint as `current` makes no new version. Nil when an input cannot be fingerprinted.
    public var fingerprint: String?
    public var territory: TerritoryInfo
    public var inputs: [String: Input]
    public var options: [String: String]
    public var counts: Counts
    public var files: [String: FileEntry]

    enum CodingKeys: String, CodingKey {
        case format, version, tool, fingerprint, territory, inputs, options, counts, files
        case campaignID = "campaign_id", previousVersion = "previous_version", createdAt = "created_at", toolVersion = "tool_version"
    }

    /// Like the synthesized one, but a missing previous version or fingerprint is written as null.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(format, forKey: .format)
        try c.encode(campaignID, forKey: .campaignID)
        try c.encode(version, forKey: .version)
        try c.encode(previousVersion, forKey: .previousVersion)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(tool, forKey: .tool)
        try c.encode(toolVersion, forKey: .toolVersion)
        try c.encode(fingerprint, forKey: .fingerprint)
        try c.encode(territory, forKey: .territory)
        try c.encode(inputs, forKey: .inputs)
        try c.encode(options, forKey: .options)
        try c.encode(counts, forKey: .counts)
        try c.encode(files, forKey: .files)
    }

    static let fileName = "manifest.json"

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }

    public static func load(_ directory: URL) throws -> SnapshotManifest {
        let data = try Data(contentsOf: directory.appendingPathComponent(fileName))
        return try JSONDecoder().decode(SnapshotManifest.self, from: data)
    }

    func write(to directory: URL) throws {
        var data = try Self.encoder().encode(self)
        data.append(0x0A)
        try SnapshotFiles.write(data, to: directory.appendingPathComponent(Self.fileName).path)
    }

    /// The checksums of every file in `directory` except the manifest (hashed at once, one file per core).
    static func checksums(of directory: URL) throws -> [String: FileEntry] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != fileName }
        let entries = ResultSlots<FileEntry?>.collect(names.count) { slots in
            DispatchQueue.concurrentPerform(iterations: names.count) { k in
                let path = directory.appendingPathComponent(names[k]).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                slots.set(k, SHA256.hashFile(path).map { FileEntry(sha256: $0, bytes: size) })
            }
        }
        var files: [String: FileEntry] = [:]
        for (name, entry) in zip(names, entries) {
            guard let entry else { throw OutputError("cannot read \(directory.appendingPathComponent(name).path)") }
            files[name] = entry
        }
        return files
    }

    /// Problems found when checking a version directory against its manifest; empty when it verifies.
    public static func verify(_ directory: URL) -> [String] {
        let manifest: SnapshotManifest
        do { manifest = try load(directory) } catch { return ["\(directory.path): no readable manifest.json (\(error))"] }
        guard let actual = try? checksums(of: directory) else { return ["\(directory.path): cannot read its files"] }
        var problems: [String] = []
        for (name, entry) in manifest.files.sorted(by: { $0.key < $1.key }) {
            guard let a = actual[name] else { problems.append("\(name): missing"); continue }
            if a.sha256 != entry.sha256 { problems.append("\(name): SHA-256 differs from the manifest") }
        }
        for name in actual.keys.sorted() where manifest.files[name] == nil { problems.append("\(name): not in the manifest") }
        return problems
    }
}

enum SnapshotFiles {
    /// Writes and syncs a small file.
    static func write(_ data: Data, to path: String) throws(OutputError) {
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw OutputError("cannot create \(path)")
        }
        defer { try? h.close() }
        do {
            try h.write(contentsOf: data)
            try h.synchronize()
        } catch {
            throw OutputError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// A link table (links.csv) as address id → (building id, link id).
    static func readLinks(_ path: String) throws(OutputError) -> [String: (building: String, link: String)] {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw OutputError(error.message) }
        return try withExtendedLifetime(file) { () throws(OutputError) in
            var columns: (address: Int, building: Int, link: Int)?
            var out: [String: (building: String, link: String)] = [:]
            var notLinks = false
            CSVRows.forEachRow(file.bytes) { row in
                if let (a, b, l) = columns {
                    if row.count > max(a, b, l) { out[row[a]] = (row[b], row[l]) }
                } else if !notLinks {
                    let header = (0..<row.count).map { row[$0] }
                    if let a = header.firstIndex(of: "address_id"), let b = header.firstIndex(of: "building_id"),
                       let l = header.firstIndex(of: "id") {
                        columns = (a, b, l)
                    } else {
                        notLinks = true
                    }
                }
            }
            if notLinks { throw OutputError("\(path) is not a links.csv") }
            return out
        }
    }
}
