import FlyrLink
import Foundation

/// A distributed run's plan (`flyr-link plan`): the run's options, its metric frame, the inputs it
/// was made from, and the territory cut into tiles. A tile task (`flyr-link tile`) reads the plan
/// alone; the finishing run (`flyr-link run --decisions`) checks that the plan is its own.
public struct TilePlan: Sendable, Codable {
    public static let format = "flyr-link-plan"
    public static let version = 6

    public var format = TilePlan.format
    public var version = TilePlan.version
    /// The run's options (sources, fields, linking): what every tile task links with.
    public var options: RunOptions
    /// The frame of the whole run: a tile's footprints and points are measured in it, so that its
    /// distances are to the bit those of one run.
    public var frame: LocalMetricFrame
    /// Each input file's size and SHA-256, to tell a plan from one made of other data.
    public var inputs: [InputFile]
    public var addresses: Int
    public var buildings: Int
    /// The layers the plan cut into tiles' packs (`TilePack`, in `packsPath`), which the tiles read
    /// in place of the source: a source a tile cannot read in part (neither GeoParquet nor
    /// FlatGeobuf with a spatial index), or a layer that repeats an id (one run keeps the first row
    /// of an id; a tile that reads a part cannot tell which is first).
    public var packed: [LayerRole]
    /// The campaign the links belong to (`RunOptions.resolvedCampaignID` of the options the plan
    /// was made with): the tiles' outputs pass writes it into every link's id.
    public var campaignID: String
    /// What the run's report says of its sources, found by the plan's read of them (see `SourceReport`).
    public var sources: SourceReport
    public var tiles: [Tile]

    /// The parts of report.json that the sources decide (read by the plan, which reads them whole),
    /// for the outputs made from the tiles' parts (`TilePartsMerge`); the rejects go beside the plan
    /// (`rejectsPath`), as rejects.csv.
    public struct SourceReport: Sendable, Codable {
        public var inputs: [String: RunReport.Input]
        public var territory: String?
        /// The counts the tiles do not make: rejects, what lies outside the territory, repairs.
        public var counts: RunReport.Counts
        public var rejects: Int
        /// The SHA-256 of the rejects' file (`rejectsPath`): the merge takes only this plan's.
        public var rejectsSHA256 = ""
        /// The warnings before those of the links, and after (`RunWarnings`).
        public var warningsBeforeLinks: [RunWarning]
        public var warningsAfterLinks: [RunWarning]
    }

    /// The empty box (a tile with nothing to read) has infinite sides, which JSON has no numbers for.
    static let nonFinite = (encoding: JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"),
                            decoding: JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))

    /// The plan's rejects (rejects.csv's bytes), beside it.
    public static func rejectsPath(plan: String) -> String {
        (plan.hasSuffix(".json") ? String(plan.dropLast(5)) : plan) + ".rejects.csv"
    }

    /// The directory of the plan's tile packs (`packed`), beside it.
    public static func packsPath(plan: String) -> String {
        (plan.hasSuffix(".json") ? String(plan.dropLast(5)) : plan) + ".packs"
    }

    public struct InputFile: Sendable, Codable, Equatable {
        public var path: String
        public var bytes: Int
        /// Seconds since 1970 (a tile checks size and time: hashing a source whole in every task
        /// would undo reading only its part; the outputs' run checks the SHA-256 too).
        public var modified: Double
        public var sha256: String
    }

    /// One tile: its own addresses are those whose point (in the frame) lies in `bounds`; it reads
    /// the addresses and buildings within its halos around them, for context.
    public struct Tile: Sendable, Codable, Equatable {
        public var index: Int
        public var bounds: TileBounds
        /// How many of the run's addresses are its own (a plan from shares of more than 4,000,000
        /// addresses counts its sample's, times the stride: about; nothing but a person reads it).
        public var addresses: Int
        /// How far around the tile the decision of its addresses reads (metres): addresses within
        /// `linkHalo.addresses`, buildings that meet the box `linkHalo.buildings` around it.
        public var linkHalo: Halo
        /// The same for the run's measures (a smaller reach: an address's candidates and its street).
        public var measureHalo: Halo
        /// What each pass reads of the sources (lon/lat): the tile within the data's extent, with its
        /// halo around it. A GeoParquet source is read only where its row groups meet it.
        public var linkReadBox: BBox
        public var measureReadBox: BBox
        /// The SHA-256 of the tile's pack of each layer in `packed`, by the layer's name.
        public var packs: [String: String] = [:]
    }

    public struct Halo: Sendable, Codable, Equatable {
        public var addresses: Double
        public var buildings: Double

        /// How far around the tile its pass reads anything.
        var reach: Double { max(addresses, buildings) }
    }

    public static func read(_ path: String) throws(InputError) -> TilePlan {
        try readWithDigest(path).plan
    }

    /// The plan and the SHA-256 of the very bytes it was read from: every file a step writes names
    /// the plan it was made for, and the next step refuses another plan's (a stale tile's decisions
    /// beside a new plan).
    public static func readWithDigest(_ path: String) throws(InputError) -> (plan: TilePlan, digest: String) {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("plan: cannot read \(path)") }
        return (try decode(data, path), SHA256.hash([UInt8](data)))
    }

    private static func decode(_ data: Data, _ path: String) throws(InputError) -> TilePlan {
        let plan: TilePlan
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = nonFinite.decoding
        do { plan = try decoder.decode(TilePlan.self, from: data) } catch {
            throw InputError("plan: \(path) is not a flyr-link plan (\(error))")
        }
        guard plan.format == format, plan.version == version else {
            throw InputError("plan: \(path) is a \(plan.format) version \(plan.version); this build reads \(format) version \(version)")
        }
        return plan
    }

    /// The plan and its rejects (`rejectsPath`), each written whole or not at all (a temporary
    /// sibling, renamed), the rejects first.
    public func write(to path: String, rejects: [Reject]) throws {
        let rejectsPath = Self.rejectsPath(plan: path)
        let temporary = rejectsPath + ".tmp-\(getpid())"
        var plan = self
        do {
            try RunWriter.writeRejects(rejects, to: temporary)
            guard let bytes = FileManager.default.contents(atPath: temporary) else { throw OutputError("plan: cannot read back \(temporary)") }
            plan.sources.rejectsSHA256 = SHA256.hash([UInt8](bytes))
            guard rename(temporary, rejectsPath) == 0 else { throw OutputError("plan: cannot write \(rejectsPath): \(String(cString: strerror(errno)))") }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        try plan.write(to: path)
    }

    /// A plan as made (`Planner.plan`), with its rejects and what it keeps of the layers it packs.
    public struct Made {
        public var plan: TilePlan
        public var rejects: [Reject]
        let packing: TilePacking?

        /// The tiles' packs (`packsPath`, replacing a plan's packs there), the rejects and the plan,
        /// each written whole or not at all: the plan as written (with its packs' SHA-256).
        public func write(to path: String) throws -> TilePlan {
            var plan = plan
            let fm = FileManager.default
            let directory = TilePlan.packsPath(plan: path)
            let replacing = try Self.holdsPacks(directory)
            if let packing, !packing.layers.isEmpty {
                // (Unique names: a killed plan's leftovers are never in the way of the next.)
                let unique = "-\(getpid())-\(UUID().uuidString)"
                let temporary = directory + ".tmp" + unique, old = directory + ".old" + unique
                do {
                    guard mkdir(temporary, 0o755) == 0 else { throw OutputError("plan: cannot make \(temporary): \(String(cString: strerror(errno)))") }
                    let digests = try packing.write(plan.tiles, to: temporary, pool: WorkerPool(threads: plan.options.threads))
                    for t in plan.tiles.indices {
                        plan.tiles[t].packs = Dictionary(uniqueKeysWithValues: digests[t].map { ($0.key.rawValue, $0.value) })
                    }
                    // The old packs out of the way, the new ones in (a tile of the old plan then finds
                    // a pack of another SHA-256, and says so), the old back if that fails.
                    if replacing, rename(directory, old) != 0 {
                        throw OutputError("plan: cannot move \(directory): \(String(cString: strerror(errno)))")
                    }
                    guard rename(temporary, directory) == 0 else {
                        let reason = String(cString: strerror(errno))
                        if replacing { _ = rename(old, directory) }
                        throw OutputError("plan: cannot write \(directory): \(reason)")
                    }
                    if replacing { try? fm.removeItem(atPath: old) }
                } catch {
                    try? fm.removeItem(atPath: temporary)
                    throw error
                }
            } else if replacing {
                try? fm.removeItem(atPath: directory)
            }
            try plan.write(to: path, rejects: rejects)
            return plan
        }

        /// Whether `directory` holds a plan's packs (a directory of nothing but regular files named
        /// as packs): false when nothing is there; anything else there is the user's, and one error.
        static func holdsPacks(_ directory: String) throws(OutputError) -> Bool {
            var info = stat()
            guard lstat(directory, &info) == 0 else { return false }
            func isPack(_ name: String) -> Bool {
                var entry = stat()
                return TilePack.isFileName(name) && lstat(directory + "/" + name, &entry) == 0 && (entry.st_mode & S_IFMT) == S_IFREG
            }
            guard (info.st_mode & S_IFMT) == S_IFDIR, let entries = try? FileManager.default.contentsOfDirectory(atPath: directory),
                  !entries.isEmpty, entries.allSatisfy(isPack) else {
                throw OutputError("plan: \(directory) is in the way of the plan's packs (it is not a directory of packs); move it or name the plan otherwise")
            }
            return true
        }
    }

    /// Written whole or not at all (a temporary sibling, renamed).
    public func write(to path: String) throws(OutputError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.nonConformingFloatEncodingStrategy = Self.nonFinite.encoding
        do { try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw OutputError("plan: cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The inputs' sizes, times and SHA-256 (files only: a database or a URL is not fingerprinted;
    /// a local directory read as a partitioned dataset, by each of its parts).
    static func fingerprints(_ options: RunOptions, hashing: Bool = true) -> [InputFile] {
        let specs = [options.buildings, options.addresses] + (options.territory.map { [$0] } ?? [])
        // (A directory that cannot be walked has no fingerprint: the steps then say it cannot be read.)
        return specs.flatMap { spec in (try? LocalSource.parquetParts(spec.location)).flatMap { $0 } ?? [spec.location] }.compactMap { path in
            guard let attrs = try? FileManager.default.attributesOfItem(atPath: path),
                  (attrs[.type] as? FileAttributeType) == .typeRegular, let size = attrs[.size] as? Int,
                  let modified = (attrs[.modificationDate] as? Date)?.timeIntervalSince1970 else { return nil }
            let digest = hashing ? SHA256.fingerprint(path) : ""
            return digest.map { InputFile(path: path, bytes: size, modified: modified, sha256: $0) }
        }
    }

    /// Whether the inputs are still those the plan was made from (their size and time; with
    /// `hashing`, their SHA-256 too): one clear error if not.
    public func checkInputs(hashing: Bool) throws(InputError) {
        let now = Self.fingerprints(options, hashing: hashing)
        for file in inputs {
            guard let found = now.first(where: { $0.path == file.path }) else {
                throw InputError("plan: \(file.path), an input of the plan, cannot be read; make the plan again")
            }
            let differs = found.bytes != file.bytes ? "its size (\(found.bytes) bytes, the plan's \(file.bytes))"
                : found.modified != file.modified ? "its modification time (a copy must keep it, e.g. cp -p, rsync -t)"
                : hashing && found.sha256 != file.sha256 ? "its SHA-256" : nil
            if let differs { throw InputError("plan: \(file.path) is not the file the plan was made from: \(differs) differs; make the plan again") }
        }
        // (A part added to a directory the plan read: its rows are not in the plan.)
        if let added = now.first(where: { file in !inputs.contains { $0.path == file.path } }) {
            throw InputError("plan: \(added.path) is a part of a source the plan was made without; make the plan again")
        }
    }
}

/// A tile's box in the frame (metres), half-open: a point on an edge belongs to the tile above or
/// to the right of it. A missing bound is unbounded, so that the tiles cover the whole plane and
/// every address belongs to exactly one.
public struct TileBounds: Sendable, Codable, Equatable {
    public var minX: Double?
    public var minY: Double?
    public var maxX: Double?
    public var maxY: Double?

    public static let everywhere = TileBounds()

    public init(minX: Double? = nil, minY: Double? = nil, maxX: Double? = nil, maxY: Double? = nil) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public func contains(_ p: Point2) -> Bool {
        (minX.map { p.x >= $0 } ?? true) && (maxX.map { p.x < $0 } ?? true)
            && (minY.map { p.y >= $0 } ?? true) && (maxY.map { p.y < $0 } ?? true)
    }

    /// The box `margin` wider on every side, its unbounded sides infinite.
    func box(expandedBy margin: Double) -> BBox {
        BBox(minX: (minX ?? -.infinity) - margin, minY: (minY ?? -.infinity) - margin,
             maxX: (maxX ?? .infinity) + margin, maxY: (maxY ?? .infinity) + margin)
    }

    /// Within `margin` of the box (a square margin: a superset of the round one).
    func near(_ p: Point2, within margin: Double) -> Bool {
        (minX.map { p.x >= $0 - margin } ?? true) && (maxX.map { p.x <= $0 + margin } ?? true)
            && (minY.map { p.y >= $0 - margin } ?? true) && (maxY.map { p.y <= $0 + margin } ?? true)
    }

    /// The box within `extent` (metres), `margin` wider on every side, in lon/lat in `frame`: its
    /// outline, a point every 100 m, brought back (a metric box's image is not a box), and 10⁻⁶°
    /// wider still (about 0.1 m).
    func lonLatBox(within extent: BBox, margin: Double, frame: LocalMetricFrame) -> BBox {
        let box = BBox(minX: max(minX ?? -.infinity, extent.minX), minY: max(minY ?? -.infinity, extent.minY),
                       maxX: min(maxX ?? .infinity, extent.maxX), maxY: min(maxY ?? .infinity, extent.maxY)).expanded(by: margin)
        guard !box.isEmpty else { return .empty }
        var ring: [Point2] = []
        let steps = { (length: Double) in max(1, Int((length / 100).rounded(.up))) }
        let nx = steps(box.maxX - box.minX), ny = steps(box.maxY - box.minY)
        for i in 0...nx {
            let x = box.minX + (box.maxX - box.minX) * Double(i) / Double(nx)
            ring += [Point2(x: x, y: box.minY), Point2(x: x, y: box.maxY)]
        }
        for j in 0...ny {
            let y = box.minY + (box.maxY - box.minY) * Double(j) / Double(ny)
            ring += [Point2(x: box.minX, y: y), Point2(x: box.maxX, y: y)]
        }
        var lonLat = BBox.empty
        for p in ring { lonLat.extend(frame.transverseMercator.inverse(p)) }
        return lonLat.expanded(by: 1e-6)
    }

    /// Whether `other` meets this box `margin` wider (unbounded sides meet everything on theirs).
    func meets(_ other: TileBounds, within margin: Double) -> Bool {
        func below(_ low: Double?, _ high: Double?) -> Bool { low == nil || high == nil || low! <= high! + margin }
        return below(other.minX, maxX) && below(minX, other.maxX) && below(other.minY, maxY) && below(minY, other.maxY)
    }

    func meets(_ box: BBox, within margin: Double) -> Bool {
        !box.isEmpty
            && (minX.map { box.maxX >= $0 - margin } ?? true) && (maxX.map { box.minX <= $0 + margin } ?? true)
            && (minY.map { box.maxY >= $0 - margin } ?? true) && (maxY.map { box.minY <= $0 + margin } ?? true)
    }
}

extension RunOptions {
    /// Whether a plan made with `plan`'s options links as this run does: the same sources (however
    /// their paths were typed), fields and linking.
    func linksLike(_ plan: RunOptions) -> Bool {
        let a = resolvingPaths, b = plan.resolvingPaths
        return a.buildings == b.buildings && a.addresses == b.addresses && a.territory == b.territory && a.fields == b.fields
            && a.link == b.link && a.linkModelPath == b.linkModelPath && a.parquetReader == b.parquetReader && a.heightUnit == b.heightUnit
    }
}

extension TilePlan.Tile {
    /// A plan's tile: its link halo as found, the measures' halo, and what each pass reads of the
    /// sources (the tile within the data's `extent`, in the frame, with its halo around it).
    init(index: Int, bounds: TileBounds, addresses: Int, options: LinkOptions, extent: BBox, frame: LocalMetricFrame, linkHalo: TilePlan.Halo) {
        let measure = TileHalo.measures(options: options)
        self.init(index: index, bounds: bounds, addresses: addresses, linkHalo: linkHalo, measureHalo: measure,
                  linkReadBox: bounds.lonLatBox(within: extent, margin: linkHalo.reach, frame: frame),
                  measureReadBox: bounds.lonLatBox(within: extent, margin: measure.reach, frame: frame))
    }
}
