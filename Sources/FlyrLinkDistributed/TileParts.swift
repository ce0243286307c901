import FlyrLink
import Foundation

/// A tile's part of a distributed run's outputs (`flyr-link tile outputs`): the rows of links.csv,
/// addresses.geojson, buildings.geojson, units.geojson and features.geojson that one run writes
/// for the tile's own addresses and the buildings it owns (those whose box's centre lies in it),
/// each row with the id the run orders it by, and the tile's part of the report's counts.
/// `TilePartsMerge` merges every tile's parts into the run's files.
///
/// The rows are one run's because the tile's run is one run's around them: it reads the link
/// halo (a building it owns lies within D/2 of the tile, its addresses within r of it, and the
/// buildings its accessory test reads within its radius), takes every address's decision from the
/// tiles that made them, and writes its rows with the run's own writers (`LinkRun.writtenRows`:
/// a writer skips the others' rows, and formats its own as for one run).
public enum TileParts {
    /// The parts' streams: each is the rows of one output (features.geojson is two: the
    /// buildings' features, then the unlinked addresses' points), in the run's order by its key.
    enum Stream: String, CaseIterable {
        case links = "links.csv"
        case addresses = "addresses.geojson"
        case buildings = "buildings.geojson"
        case units = "units.geojson"
        case buildingFeatures = "features.geojson"
        case addressFeatures = "features-unlinked.geojson"
        /// Not an output: in a links-only run, the house numbers of the tile's longest links, which
        /// report.html's table shows (links.csv, which the merge draws the page from, has none).
        case houseNumbers = "house-numbers"

        /// The output file the stream's rows go to.
        var file: String { self == .addressFeatures ? Stream.buildingFeatures.rawValue : rawValue }

        /// The file of the tile's parts that holds the stream's records.
        var partFile: String { rawValue + ".part" }
    }

    /// A tile's part of the report (summed by the merge), naming the plan it was made under.
    struct Counts: Codable {
        var plan: String
        var tile: Int
        var counts: RunReport.Counts
        /// Links per confidence band (`RunSummary.bands`).
        var bands: [Int]
    }

    public static func directoryName(tile: Int) -> String {
        String(format: "tile-%06d.parts", tile)
    }

    static let countsName = "counts.json"

    /// Writes `run`'s rows of the tile's own addresses and buildings into `directory`, whole or not
    /// at all (a temporary sibling renamed into place: a task killed half-way leaves nothing).
    static func write(_ run: LinkRun, scope: TileScope, accessory: [Bool], tile: Int, plan: String, to directory: String) throws {
        let fm = FileManager.default
        _ = try WritePath.resolve(directory, role: "tile \(tile)'s parts", inputs: run.options.inputLocations)
        removeLeftovers(of: directory)
        let temporary = temporaryName(directory)
        defer { try? fm.removeItem(atPath: temporary) }
        // (Not its parents: an attempt that outlives its job, its work directory removed, must not
        // make that directory again.)
        do {
            try fm.createDirectory(atPath: temporary, withIntermediateDirectories: false)
            try fm.createDirectory(atPath: temporary + "/written", withIntermediateDirectories: false)
        } catch {
            throw OutputError("tile \(tile): cannot write \(temporary): \(error.localizedDescription)")
        }
        // The tile's rows, written by the run's writers (told to write only those), then each given its key.
        var run = run
        run.writtenRows = (scope.own, scope.ownBuildings)
        let written = { (name: String) in temporary + "/written/" + name }
        // Each stream's records written as soon as they are made (the tile's files are read one at
        // a time), synced and closed with their errors (a full disk on NFS may say so only there).
        var digests: [String: String] = [:]
        func emit(_ stream: Stream, _ records: [UInt8]) throws {
            digests[stream.partFile] = SHA256.hash(records)
            do { try ByteWriter.write(records, to: temporary + "/" + stream.partFile) } catch { throw OutputError("tile \(tile): \(error)") }
        }
        /// The rows of `file`, keyed in order by `keys` (one key a row).
        func keyed(_ file: Stream, geoJSON: Bool, _ keys: [String]) throws -> [UInt8] {
            let rows = geoJSON ? try Self.rows(geoJSON: written(file.file), count: keys.count, tile: tile)
                : try Self.rows(csv: written(file.file), count: keys.count, tile: tile)
            return try records(zip(keys, rows).lazy.map { ($0.0, $0.1) })
        }
        let ownAddresses = run.addresses.indices.filter { scope.own[$0] }
        let ownBuildings = run.buildings.indices.filter { scope.ownBuildings[$0] }
        let buildingID = { (b: Int) in run.buildings[b].id }
        try RunWriter.writeLinks(run, to: written(Stream.links.file))
        try emit(.links, keyed(.links, geoJSON: false, ownBuildings.flatMap { b in run.linksOfBuilding(b).map { _ in buildingID(b) } }))
        if run.options.only == .links {
            try emit(.houseNumbers, try records(longestLinks(run, scope: scope).map { a in
                let number = run.addresses[a].houseNumber
                return (run.addresses[a].id, ArraySlice([number == nil ? 0 : 1] + Array((number ?? "").utf8)))
            }))
        }
        if run.options.only == .all {
            try RunWriter.writeAddresses(run, to: written(Stream.addresses.file))
            try FootprintOutputs.write(run, buildings: written(Stream.buildings.file), units: written(Stream.units.file),
                                       features: written(Stream.buildingFeatures.file))
            try emit(.addresses, keyed(.addresses, geoJSON: true, ownAddresses.map { run.addresses[$0].id }))
            try emit(.buildings, keyed(.buildings, geoJSON: true, ownBuildings.map(buildingID)))
            var slices = [Int](repeating: 0, count: run.buildings.count)
            for u in run.units { slices[u.buildingIndex] += 1 }
            // (units.geojson in the units' order, whichever it is: see FootprintOutputs.)
            try emit(.units, keyed(.units, geoJSON: true, run.units.filter { scope.ownBuildings[$0.buildingIndex] }.map { buildingID($0.buildingIndex) }))
            // features.geojson: each building's feature, or its slices' (in unit order), then the
            // unlinked addresses' points.
            let buildingFeatures = ownBuildings.flatMap { b in repeatElement(buildingID(b), count: max(1, slices[b])) }
            let unlinked = ownAddresses.filter { run.linkOfAddress[$0] == nil }.map { run.addresses[$0].id }
            let features = try rows(geoJSON: written(Stream.buildingFeatures.file), count: buildingFeatures.count + unlinked.count, tile: tile)
            try emit(.buildingFeatures, try records(zip(buildingFeatures, features).lazy.map { ($0.0, $0.1) }))
            try emit(.addressFeatures, try records(zip(unlinked, features.dropFirst(buildingFeatures.count)).lazy.map { ($0.0, $0.1) }))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let (counts, bands) = Self.counts(run, scope: scope, accessory: accessory)
        do {
            try fm.removeItem(atPath: temporary + "/written")
            let countsBytes = [UInt8](try encoder.encode(Counts(plan: plan, tile: tile, counts: counts, bands: bands)))
            digests[countsName] = SHA256.hash(countsBytes)
            try ByteWriter.write(countsBytes, to: temporary + "/" + countsName)
            try ByteWriter.write(TilePartsDigests.text(digests), to: temporary + "/" + TilePartsDigests.fileName)
        } catch {
            throw OutputError("tile \(tile): cannot write \(temporary): \(error)")
        }
        try replace(directory, with: temporary, tile: tile, plan: plan, only: run.options.only)
    }

    /// `temporary` renamed to `directory`. A retried task may find the parts of an attempt that
    /// finished under the same plan, perhaps while the merge reads them: those are these bytes,
    /// and are kept (the new ones dropped), so that the directory is never gone for a moment.
    /// Another plan's are replaced, and so are parts that are not whole (their digests differ).
    private static func replace(_ directory: String, with temporary: String, tile: Int, plan: String, only: RunOptions.OutputSelection) throws {
        let fm = FileManager.default
        if let data = fm.contents(atPath: directory + "/" + countsName),
           let existing = try? JSONDecoder().decode(Counts.self, from: data), existing.plan == plan, existing.tile == tile,
           TilePartsDigests.areWhole(directory, only: only) {
            return
        }
        try? fm.removeItem(atPath: directory)
        guard rename(temporary, directory) == 0 else {
            throw OutputError("tile \(tile): cannot rename \(temporary) to \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// The name of an attempt's temporary parts beside `directory`: unique (two attempts of one
    /// tile on two hosts may share a pid), naming the host and process that write it.
    static func temporaryName(_ directory: String) -> String {
        directory + ".tmp-\(ProcessInfo.processInfo.hostName)-\(getpid())-\(UUID().uuidString)"
    }

    /// The temporary parts that attempts of this tile killed before their end left beside
    /// `directory` (a SIGKILL runs no cleanup): those written on this host (the whole name's host)
    /// by a process that is gone, untouched for an hour (a host name may be shared by machines or
    /// containers whose processes this one cannot see: the hour keeps an attempt still writing).
    static func removeLeftovers(of directory: String) {
        let fm = FileManager.default
        let parent = (directory as NSString).deletingLastPathComponent, prefix = (directory as NSString).lastPathComponent + ".tmp-"
        let uuid = 36  // UUID().uuidString's length
        for entry in (try? fm.contentsOfDirectory(atPath: parent)) ?? [] where entry.hasPrefix(prefix) && entry.count > prefix.count + uuid + 1 {
            // host-pid-UUID: the pid between the last two dashes before the UUID.
            let middle = entry.dropFirst(prefix.count).dropLast(uuid + 1)
            guard let dash = middle.lastIndex(of: "-"), String(middle[..<dash]) == ProcessInfo.processInfo.hostName,
                  let pid = Int32(middle[middle.index(after: dash)...]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = parent + "/" + entry
            let touched = [path, path + "/written"].compactMap { (try? fm.attributesOfItem(atPath: $0))?[.modificationDate] as? Date }.max()
            if let touched, Date().timeIntervalSince(touched) > 3600 { try? fm.removeItem(atPath: path) }
        }
    }

    /// The tile's own addresses among which the page's table of the longest links is (`ReportModel`:
    /// proximity links, the longest first, as written, then by id): the table's rows are among the
    /// tiles' first rows.
    static func longestLinks(_ run: LinkRun, scope: TileScope) -> [Int] {
        let own = run.addresses.indices.filter { a in scope.own[a] && run.linkOfAddress[a].map { run.links[$0].method == .proximity } ?? false }
        // (The distance as written: the page reads it from the files.)
        let distance = { (a: Int) in ReportRounding.round(run.links[run.linkOfAddress[a]!].distance, 2) }
        // (Ties as ReportModel breaks them: by id as Swift compares strings, then by index.)
        return Array(own.sorted { distance($0) != distance($1) ? distance($0) > distance($1) : (run.addresses[$0].id, $0) < (run.addresses[$1].id, $1) }
            .prefix(ReportSettings.tableRows))
    }

    /// The tile's part of the report's counts (`RunSummary.counts` over its own addresses and buildings).
    static func counts(_ run: LinkRun, scope: TileScope, accessory: [Bool]) -> (RunReport.Counts, [Int]) {
        var c = RunReport.Counts()
        var byMethod = [Int](repeating: 0, count: MatchMethod.allCases.count)
        var bands = [Int](repeating: 0, count: RunSummary.bands.count)
        for a in run.addresses.indices where scope.own[a] {
            c.addresses += 1
            if let l = run.linkOfAddress[a].map({ run.links[$0] }) {
                c.linked += 1
                byMethod[MatchMethod.allCases.firstIndex(of: l.method)!] += 1
                bands[RunSummary.bandIndex(of: l.confidence)] += 1
            } else {
                c.unlinked += 1
                if let r = run.unlinkedReason[a] { c.unlinkedByReason[r, default: 0] += 1 }
            }
        }
        for (m, n) in zip(MatchMethod.allCases, byMethod) { c.byMethod[m.rawValue] = n }
        var isRow = [Bool](repeating: false, count: run.buildings.count)
        for u in run.units where scope.ownBuildings[u.buildingIndex] {
            c.units += 1
            if !isRow[u.buildingIndex] { isRow[u.buildingIndex] = true; c.townhomeRows += 1 }
        }
        for b in run.buildings.indices where scope.ownBuildings[b] {
            c.buildings += 1
            if !run.linksOfBuilding(b).isEmpty { c.buildingsWithAddresses += 1 }
            if accessory[b] { c.accessoryBuildings += 1 }
        }
        return (c, bands)
    }

    /// Records of a stream: the key's length (UInt16) and bytes, the row's length (UInt32) and bytes,
    /// little-endian.
    static func records<S: Sequence>(_ rows: S) throws -> [UInt8] where S.Element == (String, ArraySlice<UInt8>) {
        var out: [UInt8] = []
        for (key, row) in rows {
            guard key.utf8.count <= Int(UInt16.max) else { throw OutputError("an id of 65,536 bytes or more (\(key.prefix(40))…)") }
            withUnsafeBytes(of: UInt16(key.utf8.count).littleEndian) { out += $0 }
            out += key.utf8
            withUnsafeBytes(of: UInt32(row.count).littleEndian) { out += $0 }
            out += row
        }
        return out
    }

    static let geoJSONHeader = Array("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8)
    static let geoJSONFooter = Array("\n]}\n".utf8)

    /// A GeoJSONWriter collection's features, one per line (JSON text holds no line break), without
    /// their separators.
    static func rows(geoJSON path: String, count: Int, tile: Int) throws -> [ArraySlice<UInt8>] {
        let bytes = try contents(path, tile: tile)
        guard bytes.starts(with: geoJSONHeader), bytes.count >= geoJSONHeader.count + geoJSONFooter.count,
              Array(bytes.suffix(geoJSONFooter.count)) == geoJSONFooter else {
            throw OutputError("tile \(tile): \(path) is not a collection as flyr-link writes them")
        }
        let body = bytes[geoJSONHeader.count..<bytes.count - geoJSONFooter.count]
        // Lines found with memchr (a tile's features are a hundred megabytes).
        var rows: [ArraySlice<UInt8>] = []
        rows.reserveCapacity(count)
        if !body.isEmpty {
            bytes.withUnsafeBufferPointer { all in
                let base = all.baseAddress!
                var start = body.startIndex
                while let found = memchr(base + start, 0x0A, body.endIndex - start) {
                    let end = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                    rows.append(bytes[start..<end])
                    start = end + 1
                }
                rows.append(bytes[start..<body.endIndex])
            }
        }
        for k in rows.indices.dropLast() where rows[k].last == UInt8(ascii: ",") { rows[k] = rows[k].dropLast() }
        guard rows.count == count else { throw OutputError("tile \(tile): \(path) has \(rows.count) features, not \(count)") }
        return rows
    }

    /// A CSV file's rows after its header, each with its line break (a quoted field may hold one).
    static func rows(csv path: String, count: Int, tile: Int) throws -> [ArraySlice<UInt8>] {
        let bytes = try contents(path, tile: tile)
        var rows: [ArraySlice<UInt8>] = []
        var start = 0, quoted = false
        for (i, b) in bytes.enumerated() {
            if b == UInt8(ascii: "\"") { quoted.toggle() } else if b == 0x0A, !quoted {
                rows.append(bytes[start...i])
                start = i + 1
            }
        }
        guard start == bytes.count else { throw OutputError("tile \(tile): \(path) does not end with a whole row") }
        guard rows.count == count + 1 else { throw OutputError("tile \(tile): \(path) has \(rows.count) rows, not \(count + 1)") }
        return Array(rows.dropFirst())
    }

    /// The file's bytes, read straight into the array (not through a Data of the same size).
    static func contents(_ path: String, tile: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY)
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0 else {
            if fd >= 0 { close(fd) }
            throw OutputError("tile \(tile): cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(info.st_size)) { buffer, count in
            while count < buffer.count {
                let n = read(fd, buffer.baseAddress! + count, buffer.count - count)
                if n <= 0 { failed = n < 0; break }
                count += n
            }
        }
        guard !failed, bytes.count == Int(info.st_size) else { throw OutputError("tile \(tile): cannot read \(path)") }
        return bytes
    }
}
