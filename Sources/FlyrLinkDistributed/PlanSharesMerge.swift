import FlyrLink
import Foundation

/// The driver's steps of a plan made from shares (`PlanShares`): the frame from the scans, then
/// the plan from the scans and the measures. Each holds the shares' small files and reads their
/// sorted words in place (mapped): ids a bucket of hashes at a time, heights by order statistics.
extension PlanShares {
    /// The sorted words beside a share's file, mapped.
    final class Words {
        private let file: MappedFile
        let path: String
        let count: Int

        init(_ path: String, count: Int) throws(InputError) {
            self.count = count
            self.path = PlanShares.wordsPath(path)
            file = try MappedFile(path: self.path)
            guard file.bytes.count == 8 * count else { throw InputError("plan: \(self.path) is cut short or not this share's") }
        }

        /// Words `range` (mmap's pages are aligned: every word is).
        func section(_ range: Range<Int>) -> UnsafeBufferPointer<UInt64> {
            guard let base = file.bytes.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt64.self) + range.lowerBound, count: range.count)
        }
    }

    /// The scans of every share in `directory`, checked to be one plan's: the same options (the
    /// driver's), the same inputs, unchanged since (by size and time).
    /// `words`: their sidecars mapped too (the frame step's ids).
    static func scans(_ directory: String, shares: Int, options: RunOptions, words mapped: Bool = true) throws(InputError) -> [(scan: Scan, words: Words?)] {
        let digest = digest(options), now = TilePlan.fingerprints(options.resolvingPaths, hashing: false)
        var out: [(Scan, Words?)] = []
        for k in 0..<shares {
            let path = scanPath(directory, k)
            let scan = try read(Scan.self, path, what: "scan of share \(k)")
            guard scan.version == version, scan.share == SourceShare(index: k, count: shares) else {
                throw InputError("plan: \(path) is not the scan of share \(k)/\(shares)")
            }
            guard scan.options == digest else { throw InputError("plan: \(path) was made with other options or sources than this plan's") }
            guard sameFiles(scan.inputs, now) else {
                throw InputError("plan: the sources have changed since share \(k) was read (\(path)); read the shares again")
            }
            out.append((scan, mapped ? try Words(path, count: scan.buildingIDWords + 2 * scan.addresses.accepted) : nil))
        }
        return out
    }

    /// The same paths, sizes and times (not hashed: a share's task does not hash the sources).
    static func sameFiles(_ a: [TilePlan.InputFile], _ b: [TilePlan.InputFile]) -> Bool {
        a.map { [$0.path, "\($0.bytes)", "\($0.modified)"] } == b.map { [$0.path, "\($0.bytes)", "\($0.modified)"] }
    }

    /// The frame of the run from the scans, or why the plan must read the sources whole: what a
    /// share cannot decide alone (a source without a CRS, rows without ids, an id repeated, the
    /// report of a remote source's traffic).
    public static func frame(directory: String, shares: Int, options: RunOptions) throws(InputError) -> Frame {
        let scans = try scans(directory, shares: shares, options: options)
        var verdict = Frame(shares: shares, options: digest(options), frame: nil, whole: nil, sampleStride: 1)
        if !scans.allSatisfy(\.scan.wholeReadsInShares) {
            verdict.whole = "a whole read would take GDAL's Parquet driver (give --parquet-reader flyr to plan in shares)"
            return verdict
        }
        let layers = [("buildings", scans.map(\.scan.buildings)), ("addresses", scans.map(\.scan.addresses))]
        for (name, layer) in layers {
            if layer.contains(where: \.crsAssumed) {
                verdict.whole = "the \(name) have no CRS (one is assumed from the first 1,000 points)"
            } else if layer.contains(where: { $0.generatedIDs > 0 }) {
                verdict.whole = "rows of the \(name) have no id (theirs are numbered through the whole layer)"
            } else if layer.contains(where: \.repeats) {
                verdict.whole = "an id of the \(name) is repeated (one run keeps its first row)"
            } else if layer.contains(where: { $0.source.parquet?.bytesFetched != nil }) {
                verdict.whole = "the \(name) are remote (their report counts the whole read's requests)"
            }
            if verdict.whole != nil { return verdict }
        }
        if repeats(scans.map { $0.words!.section(0..<$0.scan.buildingIDWords) }) {
            verdict.whole = "an id of the buildings is repeated in two shares (one run keeps its first row)"
            return verdict
        }
        if repeats(scans.map { $0.words!.section($0.scan.buildingIDWords..<$0.words!.count) }) {
            verdict.whole = "an id of the addresses is repeated in two shares (one run keeps its first row)"
            return verdict
        }
        let accepted = scans.reduce(0) { $0 + $1.scan.addresses.accepted }
        verdict.frame = LinkPipeline.frame(territoryBox: scans.first?.scan.territoryBox, extents(scans.map(\.scan)))
        verdict.sampleStride = max(1, (accepted + sampleLimit - 1) / sampleLimit)
        return verdict
    }

    /// The accepted addresses' and buildings' lon/lat boxes of every share.
    static func extents(_ scans: [Scan]) -> (addresses: BBox, buildings: BBox) {
        scans.reduce(into: (BBox.empty, BBox.empty)) { $0.0.extend($1.addresses.extent); $0.1.extend($1.buildings.extent) }
    }

    /// Whether a pair of words is in two shares' sections (each sorted, of pairs): a bucket of
    /// the first word's top bits at a time, so that the driver holds a bucket, not every id. The
    /// sections are mapped files (`Words`): their pages are handed back as the buckets pass.
    static func repeats(_ pairs: [UnsafeBufferPointer<UInt64>]) -> Bool {
        let bits = 10
        var from = [Int](repeating: 0, count: pairs.count)
        for bucket in 0..<(1 << bits) {
            var gathered: [(UInt64, UInt64)] = []
            for (k, section) in pairs.enumerated() {
                var i = from[k]
                while 2 * i + 1 < section.count, section[2 * i] >> (64 - bits) == UInt64(bucket) {
                    gathered.append((section[2 * i], section[2 * i + 1]))
                    i += 1
                }
                from[k] = i
                // (The pages passed are handed back: a continent's mapped ids do not fit twice.)
                ConsumedPages.drop(section, below: 2 * i)
            }
            gathered.sort { $0 < $1 }
            for i in gathered.indices.dropFirst() where gathered[i] == gathered[i - 1] { return true }
        }
        return false
    }
}

extension PlanShares {
    /// The k-th smallest (0-based) of positive numbers held sorted in several sections, without
    /// merging them: the smallest bit pattern with more than k numbers at or below it (a positive
    /// double's bits are in its order).
    static func kthSmallest(_ k: Int, of sections: [UnsafeBufferPointer<UInt64>]) -> Double {
        func atOrBelow(_ bits: UInt64) -> Int {
            sections.reduce(0) { sum, s in
                var low = 0, high = s.count
                while low < high {
                    let mid = (low + high) / 2
                    if s[mid] <= bits { low = mid + 1 } else { high = mid }
                }
                return sum + low
            }
        }
        var low: UInt64 = 0, high = Double.infinity.bitPattern
        while low < high {
            let mid = low + (high - low) / 2
            if atOrBelow(mid) > k { high = mid } else { low = mid + 1 }
        }
        return Double(bitPattern: low)
    }

    /// A layer's source as the whole read reports it: the shares' rows and row groups added.
    static func source(_ shares: [LinkPipeline.SourceSummary]) -> LinkPipeline.SourceSummary {
        var whole = shares[0]
        whole.featuresRead = shares.reduce(0) { $0 + $1.featuresRead }
        if var parquet = whole.parquet {
            // (Every share counts every file's groups and rows; each reads and skips its own.)
            parquet.rowGroupsRead = shares.reduce(0) { $0 + ($1.parquet?.rowGroupsRead ?? 0) }
            parquet.bytesRead = shares.reduce(0) { $0 + ($1.parquet?.bytesRead ?? 0) }
            parquet.rowsSkippedByBBox = shares.reduce(0) { $0 + ($1.parquet?.rowsSkippedByBBox ?? 0) }
            whole.parquet = parquet
        }
        return whole
    }
}

extension Planner {
    /// plan, from the shares' files in `directory` (`PlanShares`): the same plan of the sources as
    /// a whole read makes (the frame, the report's inputs and counts, the rejects, the warnings),
    /// its tiles cut from the sample of points and their halos grown over the cells' longest
    /// buildings. No layer is packed: the shares are refused where a layer would be.
    public func plan(tiles: TileCount, shares directory: String) throws -> TilePlan.Made {
        try options.validate()
        let framePath = PlanShares.framePath(directory)
        let (verdict, frameDigest) = try PlanShares.Frame.read(framePath)
        guard verdict.options == PlanShares.digest(options) else { throw InputError("plan: \(framePath) was made with other options or sources than this plan's") }
        guard let frame = verdict.frame else { throw InputError("plan: the shares cannot make this plan (\(verdict.whole ?? "no frame")); make it from the sources") }
        let scans = try PlanShares.scans(directory, shares: verdict.shares, options: options, words: false)
        let now = TilePlan.fingerprints(options.resolvingPaths, hashing: false)
        var measures: [(measure: PlanShares.Measure, words: PlanShares.Words)] = []
        for k in 0..<verdict.shares {
            let path = PlanShares.measurePath(directory, k)
            let m = try PlanShares.read(PlanShares.Measure.self, path, what: "measure of share \(k)")
            guard m.version == PlanShares.version, m.share == SourceShare(index: k, count: verdict.shares), m.frame == frameDigest else {
                throw InputError("plan: \(path) is not the measure of share \(k)/\(verdict.shares) in \(framePath)")
            }
            guard PlanShares.sameFiles(m.inputs, now) else {
                throw InputError("plan: the sources have changed since share \(k) was measured (\(path)); read the shares again")
            }
            measures.append((m, try PlanShares.Words(path, count: m.heights + m.perLevel + 3 * m.sample)))
        }
        func sum(_ value: (PlanShares.Measure) -> Int) -> Int { measures.reduce(0) { $0 + value($1.measure) } }
        let buildings = sum(\.buildings), addresses = sum(\.addresses)
        // (A layer's rejects are in row order, as `Ingest.ordered` leaves them; a row is in one share.)
        let addressRejects = scans.flatMap(\.scan.addresses.rejects).sorted { $0.sourceRow < $1.sourceRow }
        let buildingRejects = measures.flatMap(\.measure.buildingRejects).sorted { $0.sourceRow < $1.sourceRow }
        var counts = RunReport.Counts()
        counts.rejected = addressRejects.count
        counts.outsideTerritory = sum(\.outsideAddresses)
        counts.buildingsRejected = buildingRejects.count
        counts.buildingsOutsideTerritory = sum(\.outsideBuildings)
        counts.buildingsRepaired = sum(\.repaired)
        let rejects = addressRejects + buildingRejects
        try EmptyLayerCheck.check(options, buildings: buildings, addresses: addresses, counts: counts, rejects: rejects)

        // (Named as this plan was given them: a share's task may have been given them otherwise,
        // e.g. as absolute paths.)
        var buildingSource = PlanShares.source(scans.map(\.scan.buildings.source))
        var addressSource = PlanShares.source(scans.map(\.scan.addresses.source))
        buildingSource.spec = options.buildings
        addressSource.spec = options.addresses
        let b = scans[0].scan.buildings, a = scans[0].scan.addresses
        var inputs: [String: RunReport.Input] = [:]
        inputs["buildings"] = pipeline.inputReport(buildingSource, b.crs, b.crsAssumed, accepted: buildings, rejected: buildingRejects.count,
                                          repaired: counts.buildingsRepaired, generated: 0)
        inputs["addresses"] = pipeline.inputReport(addressSource, a.crs, a.crsAssumed, accepted: addresses, rejected: addressRejects.count,
                                          repaired: nil, generated: 0)
        let (addressBox, buildingBox) = PlanShares.extents(scans.map(\.scan))
        let heights = measures.map { $0.words.section(0..<$0.measure.heights) }
        let perLevel = measures.map { $0.words.section($0.measure.heights..<$0.measure.heights + $0.measure.perLevel) }
        let feet = options.heightUnit != nil ? nil : HeightCheck.looksLikeFeet(
            heights: (sum(\.heights), { PlanShares.kthSmallest($0, of: heights) }),
            perLevel: (sum(\.perLevel), { PlanShares.kthSmallest($0, of: perLevel) }))
        let sources = TilePlan.SourceReport(
            inputs: inputs, territory: options.territory?.description, counts: counts, rejects: rejects.count,
            warningsBeforeLinks: RunWarnings.sources(rejects: rejects, buildings: buildingSource, addresses: addressSource,
                                                     addressBox: addressBox, buildingBox: buildingBox),
            warningsAfterLinks: RunWarnings.heights(looksLikeFeet: feet))

        // The cut, from the sample in the order of its rows' numbers; the halos, from the cells.
        var sample: [(row: UInt64, point: Point2)] = []
        sample.reserveCapacity(sum(\.sample))
        var extent = BBox.empty, cells = PlanShares.Cells()
        for (m, words) in measures {
            let s = words.section(m.heights + m.perLevel..<m.heights + m.perLevel + 3 * m.sample)
            for i in 0..<m.sample { sample.append((s[3 * i], Point2(x: Double(bitPattern: s[3 * i + 1]), y: Double(bitPattern: s[3 * i + 2])))) }
            extent.extend(m.extent)
            for c in m.cells { cells.note(PlanShares.key(Int(c.x), Int(c.y)), c.longest) }
            cells.oversized += m.oversized
        }
        sample.sort { $0.row < $1.row }
        let cut = TileCutter.cut(sample.map(\.point), into: tiles.count(addresses: addresses))
        let pool = WorkerPool(threads: options.threads)
        let planned = pool.map(cut.count, chunkSize: 1) { _, t in
            let (bounds, inSample) = cut[t]
            return TilePlan.Tile(index: t, bounds: bounds, addresses: inSample * verdict.sampleStride, options: options.link, extent: extent, frame: frame,
                                 linkHalo: TileHalo.link(around: bounds, options: options.link) { cells.longest(near: bounds, within: $0, extent: extent) })
        }
        let plan = TilePlan(options: options.resolvingPaths, frame: frame, inputs: TilePlan.fingerprints(options.resolvingPaths),
                            addresses: addresses, buildings: buildings, packed: [], campaignID: options.resolvedCampaignID,
                            sources: sources, tiles: planned)
        return TilePlan.Made(plan: plan, rejects: rejects, packing: nil)
    }
}

