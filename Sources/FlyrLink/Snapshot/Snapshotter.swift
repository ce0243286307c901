import Foundation

/// One campaign's snapshot regeneration, as the command line or a pipeline file describes it.
public struct SnapshotRequest: Sendable {
    /// The campaign UUID: the directory name under `root` and the links' campaign id.
    public var campaign: String
    public var root: String
    /// Sources, territory and link options (`out` and `campaign` are ignored: the snapshot sets them).
    public var settings: RunRequest
    public var roads: SourceSpec?
    /// Keep this many versions (never removing `current`); nil keeps all.
    public var keep: Int?
    public var stickyMargin: Double = LinkOptions.defaultStickyMargin

    public init(campaign: String, root: String, settings: RunRequest) {
        self.campaign = campaign
        self.root = root
        self.settings = settings
    }
}

public struct SnapshotResult: Sendable {
    public enum Outcome: String, Sendable {
        /// A new version was made and is now `current`.
        case created
        /// Inputs and options are those of `current`: no new version.
        case unchanged
    }

    public var outcome: Outcome
    public var campaign: String
    /// The version that is `current` now.
    public var version: String
    public var previous: String?
    public var directory: String
    public var diff: SnapshotDiff?
    public var manifest: SnapshotManifest
    public var pruned: [String] = []
    /// The linker's run, when a version was made.
    public var linkRun: LinkRun?
}

/// Regenerates campaign snapshots: `ROOT/<campaign>/<version>/` with the clipped sources gzipped,
/// the linker's outputs, `diff.json` and `manifest.json`; `current` switched atomically.
public enum Snapshotter {
    public static let files = ["buildings.geojson.gz", "addresses.geojson.gz", "features.geojson.gz", "links.csv",
                               "units.geojson", "rejects.csv", "report.json", "report.html", "diff.json", DigestFile.name, "manifest.json"]

    public static func regenerate(_ request: SnapshotRequest, observer: PipelineObserver? = nil) throws -> SnapshotResult {
        // Everything that can be checked without writing: campaign id, options, territory, root.
        guard UUIDv5.isValid(request.campaign) else {
            throw InputError("campaign id '\(request.campaign)' is not a UUID")
        }
        let campaign = request.campaign.lowercased()
        guard request.settings.territory != nil else {
            throw InputError("campaign \(campaign): a snapshot needs a territory (--territory)")
        }
        var settings = request.settings
        settings.campaign = campaign
        settings.out = settings.out ?? "/dev/null"
        var options = try settings.options()
        options.link.stickyMargin = request.stickyMargin
        try options.validate()
        if let keep = request.keep, let why = OptionLimits.countProblem("--keep (keep)", keep, maximum: OptionLimits.versionsKept) { throw InputError(why) }
        let territory = try Territory.read(options.territory!)
        let inputs = options.inputLocations + (request.roads.map { [$0.location] } ?? [])
        let root = try WritePath.resolve(request.root, role: "--root", inputs: inputs, writtenIn: true).url
        let createdRoot = try checkWritable(root)

        let fingerprint = Fingerprint(options: options, roads: request.roads, territory: territory)

        // From here on, files are written; a failure removes what this run created.
        let dir = CampaignDirectory(root: root, campaign: campaign)
        let campaignExisted = FileManager.default.fileExists(atPath: dir.url.path)
        var succeeded = false
        var staging: URL?
        do {
            try FileManager.default.createDirectory(at: dir.url, withIntermediateDirectories: true)
        } catch {
            throw OutputError("cannot create \(dir.url.path): \(error.localizedDescription)")
        }
        let lock = try CampaignLock(directory: dir)
        defer {
            // Cleaned up while the lock is still held, then released.
            if !succeeded {
                if let staging { try? FileManager.default.removeItem(at: staging) }
                if !campaignExisted, dir.versions().isEmpty {
                    try? FileManager.default.removeItem(at: dir.url)
                    if let createdRoot { try? FileManager.default.removeItem(at: createdRoot) }
                }
            }
            withExtendedLifetime(lock) {}
        }
        TestPause.point("locked")
        dir.removeLeftovers()

        let current = dir.current()
        if let current, let manifest = try? SnapshotManifest.load(dir.url.appendingPathComponent(current)),
           let fp = fingerprint.value, manifest.fingerprint == fp {
            succeeded = true
            let pruned = request.keep.map { dir.prune(keep: $0) } ?? []
            return SnapshotResult(outcome: .unchanged, campaign: campaign, version: current, previous: current,
                                  directory: dir.path(current), diff: nil, manifest: manifest, pruned: pruned, linkRun: nil)
        }

        // The previous version's links, read once: kept where they still hold (sticky), and compared in diff.json.
        var previousLinks: SnapshotDiff.LinkTable = [:]
        if let current {
            previousLinks = try SnapshotFiles.readLinks(dir.path(current) + "/links.csv")
            options.previousLinks = previousLinks.mapValues(\.building)
        }
        let previousDigests = PreviousDigests(current.map { dir.url.appendingPathComponent($0) })
        defer { _ = try? previousDigests.wait() }  // no thread outlives a failed regeneration
        let version = dir.nextVersion()
        let stage = dir.url.appendingPathComponent(".staging-\(version)-\(getpid())")
        staging = stage
        do {
            try FileManager.default.createDirectory(at: stage, withIntermediateDirectories: false)
        } catch {
            throw OutputError("cannot write in \(dir.url.path): \(error.localizedDescription)")
        }
        options.output = stage.path

        let run = try LinkPipeline(options: options, observer: observer).run()
        TestPause.point("linked")
        if run.buildings.isEmpty && run.addresses.isEmpty {
            throw InputError("campaign \(campaign): territory \(options.territory!.description) intersects no building and no address of the sources")
        }
        try EmptyLayerCheck.check(run)

        observer?(.started(.write, detail: stage.path))
        let t0 = Date()
        var counts = try writeFiles(run, roads: request.roads, territory: territory, to: stage, observer: observer)
        TestPause.point("written")
        let digests = try GzipAndDigest.run(Self.gzipped(roads: request.roads != nil), in: stage, previous: previousDigests)
        // The digests kept for the next version while the diff is made (both only read them).
        let previousLinksNow = previousLinks
        let steps = ResultSlots<Result<SnapshotDiff?, OutputError>>.collect(2) { slots in
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                slots.set(k, Result { () throws(OutputError) -> SnapshotDiff? in
                    if k == 0 {
                        try DigestFile.write(buildings: digests.buildings.new, addresses: digests.addresses.new, to: stage)
                        return nil
                    }
                    let links = try SnapshotFiles.readLinks(stage.appendingPathComponent("links.csv").path)
                    return SnapshotDiff.make(campaignID: campaign, from: current, to: version, links: (previousLinksNow, links),
                                             buildings: digests.buildings, addresses: digests.addresses)
                })
            }
        }
        _ = try steps[0].get()
        let diff = try steps[1].get()!
        try diff.write(to: stage)
        counts.rejects = run.rejects.count
        let manifest = SnapshotManifest(
            campaignID: campaign, version: version, previousVersion: current,
            createdAt: ISO8601DateFormatter().string(from: Date()), fingerprint: fingerprint.value,
            territory: .init(source: options.territory!.description, sha256: fingerprint.territory, polygons: territory.footprint.polygons.count),
            inputs: fingerprint.inputs, options: fingerprint.options, counts: counts,
            files: try SnapshotManifest.checksums(of: stage))
        try manifest.write(to: stage)
        dir.syncDirectory()
        TestPause.point("staged")
        try dir.publish(staging: stage, as: version)
        staging = nil
        succeeded = true
        observer?(.finished(.write, detail: dir.path(version), seconds: Date().timeIntervalSince(t0)))
        let pruned = request.keep.map { dir.prune(keep: $0) } ?? []
        return SnapshotResult(outcome: .created, campaign: campaign, version: version, previous: current,
                              directory: dir.path(version), diff: diff, manifest: manifest, pruned: pruned, linkRun: run)
    }

    /// The outputs that a version keeps gzipped (GzipAndDigest gzips them once written).
    static func gzipped(roads: Bool) -> [String] {
        ["buildings.geojson", "addresses.geojson", "features.geojson"] + (roads ? ["roads.geojson"] : [])
    }

    /// The linker's outputs and the clipped roads when given, all plain (`gzipped` ones still to be gzipped).
    static func writeFiles(_ run: LinkRun, roads: SourceSpec?, territory: Territory, to dir: URL,
                           observer: PipelineObserver? = nil) throws -> SnapshotManifest.Counts {
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        try RunWriter.writeLinks(run, to: path("links.csv"))
        try RunWriter.writeRejects(run.rejects, to: path("rejects.csv"))
        try RunWriter.writeReport(run.report, to: path("report.json"))
        try ReportFile.write(run, to: path(ReportFile.name), observer: observer)
        try RunWriter.writeAddresses(run, to: path("addresses.geojson"))
        try FootprintOutputs.write(run, buildings: path("buildings.geojson"), units: path("units.geojson"),
                                   features: path("features.geojson"))
        var counts = SnapshotManifest.Counts()
        if let roads {
            counts.roads = try RoadClipper.clip(roads, territory: territory.footprint, to: path("roads.geojson"))
        }
        counts.buildings = run.buildings.count
        counts.addresses = run.addresses.count
        counts.links = run.links.count
        counts.unlinked = run.linkOfAddress.filter { $0 == nil }.count
        counts.units = run.units.count
        return counts
    }

    /// Fails unless `root` is (or can be made) a writable directory; returns the topmost directory
    /// that would have to be created, so a failed run can remove it again.
    static func checkWritable(_ root: URL) throws(OutputError) -> URL? {
        var url = root
        var missing: URL?
        let fm = FileManager.default
        while true {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: url.path, isDirectory: &isDir) {
                guard isDir.boolValue else { throw OutputError("snapshot root \(root.path): \(url.path) is not a directory") }
                guard access(url.path, W_OK | X_OK) == 0 else {
                    throw OutputError("snapshot root \(root.path) is not writable (\(url.path): \(String(cString: strerror(errno))))")
                }
                return missing
            }
            missing = url
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { throw OutputError("snapshot root \(root.path) cannot be created") }
            url = parent
        }
    }
}

/// What makes a snapshot what it is: input file contents, territory, options and tool version.
struct Fingerprint {
    var inputs: [String: SnapshotManifest.Input] = [:]
    var options: [String: String]
    var territory: String
    /// Nil when some input is not a file and so cannot be fingerprinted (always regenerate).
    var value: String?

    init(options o: RunOptions, roads: SourceSpec?, territory t: Territory) {
        func input(_ spec: SourceSpec) -> SnapshotManifest.Input {
            let attrs = try? FileManager.default.attributesOfItem(atPath: spec.location)
            let isFile = (attrs?[.type] as? FileAttributeType) == .typeRegular
            return .init(source: ConnectionSecrets.masked(spec.location), layer: spec.layer, crs: spec.crs,
                         sha256: isFile ? SHA256.fingerprint(spec.location) : nil, bytes: isFile ? attrs?[.size] as? Int : nil)
        }
        // Large inputs take a while to hash: both at once (`SHA256.fingerprint` remembers them for input(_:)).
        let specs = [o.buildings, o.addresses] + (roads.map { [$0] } ?? [])
        DispatchQueue.concurrentPerform(iterations: specs.count) { k in
            let isFile = (try? FileManager.default.attributesOfItem(atPath: specs[k].location)[.type] as? FileAttributeType) == .typeRegular
            if isFile { _ = SHA256.fingerprint(specs[k].location) }
        }
        inputs["buildings"] = input(o.buildings)
        inputs["addresses"] = input(o.addresses)
        if let roads { inputs["roads"] = input(roads) }
        var b: [UInt8] = []
        for poly in t.footprint.polygons {
            for ring in poly.rings {
                for p in ring { b += Array("\(OutputNumber.fixed(p.x, 7)) \(OutputNumber.fixed(p.y, 7)),".utf8) }
                b += Array(";".utf8)
            }
            b += Array("|".utf8)
        }
        territory = SHA256.hash(b)
        options = [
            "strategy": o.link.strategy.rawValue,
            "max_distance_m": OutputNumber.fixed(o.link.maxDistance, 3),
            "accessory_max_area_m2": OutputNumber.fixed(o.link.accessoryMaxArea, 3),
            "accessory_radius_m": OutputNumber.fixed(o.link.accessoryRadius, 3),
            "sticky_margin_m": OutputNumber.fixed(o.link.stickyMargin, 3),
            "units": o.units.rawValue,
            "height_unit": (o.heightUnit ?? .m).rawValue,
            "campaign_id": o.resolvedCampaignID,
            "address_fields": o.fields.address.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
            "building_fields": o.fields.building.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
        ]
        if inputs.values.allSatisfy({ $0.sha256 != nil }) {
            var material: [String] = ["tool=\(FlyrLinkVersion.string)", "territory=\(territory)"]
            for (role, i) in inputs.sorted(by: { $0.key < $1.key }) {
                material.append("\(role)=\(i.sha256!)|layer=\(i.layer ?? "")|crs=\(i.crs ?? "")")
            }
            for (k, v) in options.sorted(by: { $0.key < $1.key }) { material.append("\(k)=\(v)") }
            value = SHA256.hash(Array(material.joined(separator: "\n").utf8))
        }
    }
}
