import Foundation

/// The last step of a version's layers: each plain GeoJSON the run's writers left in the staging
/// directory is gzipped (and removed), and the buildings and addresses are digested for
/// `diff.json` from the same mapped bytes (read once, never gunzipped again). One job per core,
/// the largest first. The previous version's digests come from `PreviousDigests`.
enum GzipAndDigest {
    struct Digests {
        var buildings: SnapshotDiff.LayerDigests = ([:], [:])
        var addresses: SnapshotDiff.LayerDigests = ([:], [:])
    }

    /// `plain`: the staged files to gzip (names in `stage`).
    static func run(_ plain: [String], in stage: URL, previous: PreviousDigests) throws(OutputError) -> Digests {
        @Sendable func keys(_ name: String) -> [String]? {
            switch name {
            case "buildings.geojson": FeatureDigests.buildingKeys
            case "addresses.geojson": FeatureDigests.addressKeys
            default: nil
            }
        }
        // features.geojson is about as large as the other two together: first, so no core waits on it at the end.
        let names = plain.sorted { ($0 == "features.geojson" ? 0 : 1, $0) < ($1 == "features.geojson" ? 0 : 1, $1) }
        let results = ResultSlots<Result<FeatureDigests.Table?, OutputError>>.collect(names.count) { slots in
            DispatchQueue.concurrentPerform(iterations: names.count) { k in
                slots.set(k, Result { () throws(OutputError) in
                    try gzip(stage.appendingPathComponent(names[k]).path, digestKeys: keys(names[k]))
                })
            }
        }
        var digests = Digests()
        for (name, result) in zip(names, results) {
            let d = try result.get() ?? [:]
            if name == "buildings.geojson" { digests.buildings.new = d }
            if name == "addresses.geojson" { digests.addresses.new = d }
        }
        (digests.buildings.old, digests.addresses.old) = try previous.wait()
        return digests
    }

    /// `path` gzipped into `path.gz` and removed; its digests when `digestKeys` are given.
    private static func gzip(_ path: String, digestKeys: [String]?) throws(OutputError) -> FeatureDigests.Table? {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw OutputError(error.message) }
        let digests = try withExtendedLifetime(file) { () throws(OutputError) -> FeatureDigests.Table? in
            try Gzip.compress(file.bytes, to: path + ".gz", name: path)
            return try digestKeys.map { (keys) throws(OutputError) in try FeatureDigests.of(file.bytes, keys: keys, file: path) }
        }
        do { try FileManager.default.removeItem(atPath: path) } catch { throw OutputError("cannot remove \(path): \(error.localizedDescription)") }
        return digests
    }
}

/// The previous version's digests (`FeatureDigests.ofVersion`: the ones it keeps, else its layers
/// scanned), made on a spare thread from when a regeneration starts, as the linker leaves a core
/// idle now and then (its files do not change: the campaign is locked).
final class PreviousDigests: @unchecked Sendable {
    private let group = DispatchGroup()
    private var digests: Result<(buildings: FeatureDigests.Table, addresses: FeatureDigests.Table), OutputError> = .success(([:], [:]))

    /// `version`: the previous version's directory; nil for none (empty digests).
    init(_ version: URL?) {
        guard let version else { return }
        DispatchQueue.global(qos: .utility).async(group: group) {
            self.digests = Result { () throws(OutputError) in try FeatureDigests.ofVersion(version) }
        }
    }

    /// Waits for them; the buildings' and the addresses' digests.
    func wait() throws(OutputError) -> (buildings: FeatureDigests.Table, addresses: FeatureDigests.Table) {
        group.wait()
        return try digests.get()
    }
}
