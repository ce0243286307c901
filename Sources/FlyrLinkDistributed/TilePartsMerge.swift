import FlyrLink
import Foundation

/// The outputs of a distributed run from its tiles' parts (`flyr-link run --parts DIR`): each
/// file's rows merged from every tile's, in the run's order (by id, bytewise), framed as the
/// run's writers frame them; rejects.csv and the sources' part of report.json from the plan, the
/// counts summed from the tiles'; report.html drawn from the files (as `flyr-link report` redraws
/// it); the other formats (FlatGeobuf, GeoParquet, a GeoPackage) made from those files as a run
/// makes them. Reads no source, and
/// holds a 64 KiB block of each tile, not the rows.
public enum TilePartsMerge {
    /// Writes the outputs `options` asks for from the parts in `directory` (beside its plan.json);
    /// returns the report written.
    public static func write(_ options: RunOptions, parts directory: String, observer: PipelineObserver? = nil) throws -> RunReport {
        let started = Date()
        let (plan, digest) = try TilePlan.readWithDigest(directory + "/" + TileDecisions.planName)
        guard options.linksLike(plan.options), options.units == plan.options.units, options.only == plan.options.only,
              options.allowEmpty == plan.options.allowEmpty else {
            throw InputError("parts: the plan in \(directory) was made for other sources, linking or output options than this run's (--units, --only, --allow-empty go to the plan too)")
        }
        guard options.resolvedCampaignID == plan.campaignID else {
            throw InputError("parts: the plan in \(directory) is of campaign \(plan.campaignID), this run's is \(options.resolvedCampaignID) (give --campaign to both)")
        }
        guard PostgresTarget.conninfo(from: options.output) == nil else {
            throw InputError("parts: a distributed run's parts are merged into files; a database is written by run --decisions")
        }
        // The tiles checked the sources' sizes and times; the plan holds their SHA-256. The report
        // names the sources as the plan was given them (and read what they named): this run must
        // name them so too.
        try plan.checkInputs(hashing: false)
        let named = [("buildings", options.buildings), ("addresses", options.addresses)]
            .map { (plan.sources.inputs[$0.0]?.source, PostgresTarget.redacted($0.1.description)) }
            + [(plan.sources.territory, options.territory?.description)]
        for (planned, given) in named where planned != given {
            throw InputError("parts: the plan in \(directory) names a source \(planned ?? "(none)"), this run \(given ?? "(none)"); give the sources as the plan was given them")
        }
        // Every file of the parts is the one its tile wrote (SHA256SUMS) before a byte of it is used.
        if let problem = TilePartsDigests.firstProblem(tiles: plan.tiles.map(\.index), in: directory, only: options.only, threads: options.threads) {
            throw problem
        }
        var counts = plan.sources.counts
        var bands = [Int](repeating: 0, count: RunSummary.bands.count)
        var tileCounts: [RunReport.Counts] = []
        for m in MatchMethod.allCases { counts.byMethod[m.rawValue] = 0 }
        for tile in plan.tiles {
            let path = partsPath(directory, tile.index) + "/" + TileParts.countsName
            guard let data = FileManager.default.contents(atPath: path) else { throw InputError("parts: tile \(tile.index) has no parts (\(path))") }
            guard let part = try? JSONDecoder().decode(TileParts.Counts.self, from: data), part.tile == tile.index, part.plan == digest,
                  part.bands.count == bands.count else {
                throw InputError("parts: \(path) is not tile \(tile.index)'s part under the plan in \(directory)")
            }
            add(part.counts, to: &counts)
            tileCounts.append(part.counts)
            for k in bands.indices { bands[k] += part.bands[k] }
        }
        guard counts.addresses == plan.addresses, counts.buildings == plan.buildings else {
            throw InputError("parts: the tiles' parts hold \(counts.addresses) addresses and \(counts.buildings) buildings, the plan \(plan.addresses) and \(plan.buildings)")
        }

        // (The parts' directory is read, never replaced: --out cannot be it or hold it.)
        let dir = try OutputDirectory(path: options.output, overwrite: options.overwrite, inputs: options.inputLocations + [directory],
                                      format: options.format)
        let tiles = plan.tiles.map(\.index)
        try allowOpenFiles(tiles.count + 64)
        var header: [UInt8] = []
        CSVWriter.appendRow(RunWriter.linksHeader, to: &header)
        let links = try merge([.links], of: tiles, in: directory, into: dir.path("links.csv"), header: header, separator: [], footer: [])
        // A tile's links are those of the buildings it owns, not of its addresses: only their total is known.
        guard links[0].reduce(0, +) == counts.linked else {
            throw InputError("parts: the tiles' links.csv parts hold \(links[0].reduce(0, +)) links, their counts \(counts.linked)")
        }
        try copyRejects(TilePlan.rejectsPath(plan: directory + "/" + TileDecisions.planName), sha256: plan.sources.rejectsSHA256, to: dir.path("rejects.csv"))
        if options.only == .all {
            for streams in [[TileParts.Stream.addresses], [.buildings], [.units], [.buildingFeatures, .addressFeatures]] {
                let records = try merge(streams, of: tiles, in: directory, into: dir.path(streams[0].file), header: TileParts.geoJSONHeader,
                                        separator: Array(",\n".utf8), footer: TileParts.geoJSONFooter)
                for (stream, perTile) in zip(streams, records) {
                    for (k, tile) in tiles.enumerated() where perTile[k] != expectedRecords(stream, tileCounts[k]) {
                        throw InputError("parts: tile \(tile)'s \(stream.rawValue) part holds \(perTile[k]) rows, its counts \(expectedRecords(stream, tileCounts[k]))")
                    }
                }
            }
        }
        let pipeline = LinkPipeline(options: options)
        var report = RunReport(campaignID: plan.campaignID, metricFrame: plan.frame.projString, options: pipeline.optionSummary(),
                               run: .init(threads: options.threads, secondsByStage: [:], secondsTotal: 0))
        report.inputs = plan.sources.inputs
        report.territory = plan.sources.territory
        report.counts = counts
        report.confidenceHistogram = zip(RunSummary.bands, bands).map { RunReport.Band(band: $0.0.0, links: $0.1) }
        report.warnings = plan.sources.warningsBeforeLinks + RunWarnings.links(counts) + plan.sources.warningsAfterLinks
        report.run.secondsByStage = [PipelineStage.write.rawValue: Date().timeIntervalSince(started)]
        report.run.secondsTotal = Date().timeIntervalSince(started)
        try RunWriter.writeReport(report, to: dir.path("report.json"))
        // (A GeoPackage is one file, without the page, as a run writes it.)
        if options.writeHTML, options.format != .gpkg {
            observer?(.started(.report, detail: ReportFile.name))
            let t0 = Date()
            _ = try ReportFile.redraw(directory: dir.staging.path,
                                  houseNumbers: options.only == .links ? try houseNumbers(of: tiles, in: directory) : [:], checkingLinks: false)
            observer?(.finished(.report, detail: ReportFile.name, seconds: Date().timeIntervalSince(t0), items: counts.addresses))
        }
        switch options.format {
        case .fgb: if options.only == .all { try FlatGeobufOutput.convert(dir, threads: options.threads) }
        case .parquet: if options.only == .all { try GeoParquetOutput.convert(dir, threads: options.threads) }
        case .gpkg: try GeoPackageOutput.write(only: options.only, staged: dir, to: dir.path(RunWriter.geoPackageName))
        case .dir: break
        }
        if options.format == .gpkg { try dir.commitFile(RunWriter.geoPackageName) } else { try dir.commit() }
        return report
    }

    /// How many rows of `stream` a tile with `counts` writes (its own addresses', and its own
    /// buildings': a feature each, or one a slice for a townhouse row).
    static func expectedRecords(_ stream: TileParts.Stream, _ counts: RunReport.Counts) -> Int {
        switch stream {
        case .addresses: counts.addresses
        case .buildings: counts.buildings
        case .units: counts.units
        case .buildingFeatures: counts.buildings - counts.townhomeRows + counts.units
        case .addressFeatures: counts.unlinked
        case .links, .houseNumbers: preconditionFailure("checked in total")
        }
    }

    /// The house numbers of the tiles' longest links (`TileParts.longestLinks`), by address id.
    static func houseNumbers(of tiles: [Int], in directory: String) throws -> [String: String?] {
        var numbers: [String: String?] = [:]
        for t in tiles {
            // (The longest links first, not in key order.)
            let reader = try PartReader(partsPath(directory, t) + "/" + TileParts.Stream.houseNumbers.partFile, tile: t, ordered: false)
            while !reader.done {
                numbers[String(decoding: reader.key, as: UTF8.self)] = reader.row.first == 1 ? String(decoding: reader.row.dropFirst(), as: UTF8.self) : nil
                try reader.advance()
            }
        }
        return numbers
    }

    /// A merge holds one file of every tile open at once: the soft limit on open files (often
    /// 1,024) raised to `count` if the hard one allows.
    static func allowOpenFiles(_ count: Int) throws {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        guard limit.rlim_max >= rlim_t(count) else {
            throw InputError("parts: \(count) files must be open at once, more than this process may open (\(limit.rlim_max)); raise ulimit -n, or use fewer tiles")
        }
        limit.rlim_cur = rlim_t(count)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    static func partsPath(_ directory: String, _ tile: Int) -> String {
        directory + "/" + TileParts.directoryName(tile: tile)
    }

    static func add(_ part: RunReport.Counts, to c: inout RunReport.Counts) {
        c.addresses += part.addresses; c.linked += part.linked; c.unlinked += part.unlinked
        for (k, n) in part.byMethod { c.byMethod[k, default: 0] += n }
        for (k, n) in part.unlinkedByReason { c.unlinkedByReason[k, default: 0] += n }
        c.buildings += part.buildings; c.buildingsWithAddresses += part.buildingsWithAddresses
        c.accessoryBuildings += part.accessoryBuildings; c.townhomeRows += part.townhomeRows; c.units += part.units
    }

    /// The plan's rejects, copied (the plan wrote them as rejects.csv's bytes, and their SHA-256).
    static func copyRejects(_ path: String, sha256: String, to target: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("parts: the plan's rejects (\(path)) cannot be read") }
        guard SHA256.hash([UInt8](data)) == sha256 else { throw InputError("parts: \(path) is not the plan's rejects; make the plan again") }
        guard FileManager.default.createFile(atPath: target, contents: data) else { throw OutputError("cannot write \(target)") }
    }

    /// The rows of `streams` (one after the other) of every tile, merged by key (bytewise; a key
    /// in two tiles is an error: each row is one tile's), written between `header` and `footer`
    /// with `separator` between rows; how many rows each tile gave of each stream.
    static func merge(_ streams: [TileParts.Stream], of tiles: [Int], in directory: String, into path: String,
                      header: [UInt8], separator: [UInt8], footer: [UInt8]) throws -> [[Int]] {
        let out = try ByteWriter(path: path)
        out.write(bytes: header)
        var first = true
        var records: [[Int]] = []
        for stream in streams {
            let readers = try tiles.map { t in try PartReader(partsPath(directory, t) + "/" + stream.partFile, tile: t) }
            var heap = TileHeap(readers)
            var last: (key: [UInt8], tile: Int)?
            while let r = heap.top {
                let reader = readers[r]
                if let last, last.key[...] == reader.key, last.tile != reader.tile {
                    throw InputError("parts: \(String(decoding: reader.key, as: UTF8.self)) is in the \(stream.file) parts of tiles \(last.tile) and \(reader.tile)")
                }
                if !first { out.write(bytes: separator) }
                first = false
                reader.row.withUnsafeBytes { out.write(bytes: $0) }
                if last?.key[...] != reader.key { last = (Array(reader.key), reader.tile) }
                try reader.advance()
                heap.update()
            }
            records.append(readers.map(\.records))
        }
        out.write(bytes: footer)
        try out.close()
        return records
    }
}

/// One tile's stream of records (`TileParts.records`), read in blocks; `key` and `row` are the
/// current record's, empty once it is over.
final class PartReader {
    let tile: Int
    private let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var at = 0
    private var ended = false
    private(set) var key: ArraySlice<UInt8> = []
    private(set) var row: ArraySlice<UInt8> = []
    private(set) var done = false
    /// How many records have been read, and the last one's key (a tile writes them in key order).
    private(set) var records = 0
    private var lastKey: [UInt8] = []

    /// `ordered`: the stream's keys go up (an output's rows), checked as they are read.
    private let ordered: Bool

    init(_ path: String, tile: Int, ordered: Bool = true) throws {
        self.path = path
        self.tile = tile
        self.ordered = ordered
        guard let handle = FileHandle(forReadingAtPath: path) else { throw InputError("parts: tile \(tile) has no \(path)") }
        self.handle = handle
        try advance()
    }

    deinit { try? handle.close() }

    /// At least `n` bytes from `at` in the buffer, or false at the end of the file.
    private func fill(_ n: Int) throws -> Bool {
        while buffer.count - at < n, !ended {
            if at > 0 { buffer.removeFirst(at); at = 0 }
            let more: Data?
            // (64 KiB at a time: a merge holds a block of every tile.)
            do { more = try handle.read(upToCount: max(1 << 16, n)) } catch { throw InputError("parts: cannot read \(path): \(error.localizedDescription)") }
            if let more, !more.isEmpty { buffer += more } else { ended = true }
        }
        return buffer.count - at >= n
    }

    /// The little-endian integer of `size` bytes `offset` bytes after `at`.
    private func integer(at offset: Int, _ size: Int) -> Int {
        var v = 0
        for k in (0..<size).reversed() { v = v << 8 | Int(buffer[at + offset + k]) }
        return v
    }

    /// The next record (read whole into the buffer before anything is taken from it: a fill moves
    /// the buffer's bytes down).
    func advance() throws {
        key = []; row = []  // (so that a fill does not copy the buffer they would share)
        guard try fill(2) else {
            guard buffer.count == at else { throw InputError("parts: \(path) is cut short") }
            done = true
            return
        }
        let keyLength = integer(at: 0, 2)
        guard try fill(2 + keyLength + 4) else { throw InputError("parts: \(path) is cut short") }
        let rowLength = integer(at: 2 + keyLength, 4)
        guard try fill(2 + keyLength + 4 + rowLength) else { throw InputError("parts: \(path) is cut short") }
        key = buffer[(at + 2)..<(at + 2 + keyLength)]
        row = buffer[(at + 2 + keyLength + 4)..<(at + 2 + keyLength + 4 + rowLength)]
        at += 2 + keyLength + 4 + rowLength
        guard !ordered || !key.lexicographicallyPrecedes(lastKey) else {  // (nothing precedes the first's empty lastKey)
            throw InputError("parts: \(path) is not in the run's order (\(String(decoding: key, as: UTF8.self)) after \(String(decoding: lastKey, as: UTF8.self)))")
        }
        records += 1
        if ordered { lastKey.replaceSubrange(lastKey.indices, with: key) }
    }
}

/// A binary min-heap of the readers not done, by their current key, then tile.
struct TileHeap {
    private let readers: [PartReader]
    private var heap: [Int]

    init(_ readers: [PartReader]) {
        self.readers = readers
        heap = []
        for r in readers.indices where !readers[r].done { heap.append(r); siftUp(heap.count - 1) }
    }

    var top: Int? { heap.first }

    private func less(_ a: Int, _ b: Int) -> Bool {
        let x = readers[heap[a]], y = readers[heap[b]]
        if x.key != y.key { return x.key.lexicographicallyPrecedes(y.key) }
        return x.tile < y.tile
    }

    /// After the top reader advanced.
    mutating func update() {
        if readers[heap[0]].done {
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
        }
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count, less(l, m) { m = l }
            if r < heap.count, less(r, m) { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }

    private mutating func siftUp(_ k: Int) {
        var i = k
        while i > 0, less(i, (i - 1) / 2) {
            heap.swapAt(i, (i - 1) / 2)
            i = (i - 1) / 2
        }
    }
}
