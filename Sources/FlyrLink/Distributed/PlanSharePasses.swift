import Foundation

/// The two passes of a plan made on the cluster over one share of the sources (`PlanShares`).
extension LinkPipeline {
    /// The scan of `share`: its rows read and ingested as a run ingests them; its counts, extents,
    /// rejects, and its accepted ids' hashes (sorted), written to `path` and its sidecar.
    public func scanShare(_ share: SourceShare, to path: String) throws {
        let (pipeline, clock, pool) = try shareRun()
        let inputs = try pipeline.readAndIngest(clock, pool, share: share)
        let extents = Self.extents(inputs.addresses.points!, inputs.buildings.footprints!, pool: pool)
        func layer<Row>(_ result: Ingest.Result<Row>, _ source: SourceSummary, extent: BBox) -> PlanShares.LayerScan {
            PlanShares.LayerScan(source: source, crs: result.crs, crsAssumed: result.crsAssumed, generatedIDs: result.generatedIDs,
                                 accepted: result.rows.count, extent: extent, rejects: result.rejects,
                                 repeats: result.rejects.contains { $0.reason.hasPrefix("duplicate id") })
        }
        let buildingIDs = PlanShares.sortedPairs(inputs.buildings.rows.restore(pool: pool).map { $0.withIDUTF8(PlanShares.idHash) })
        let addressIDs = PlanShares.sortedPairs(inputs.addresses.rows.restore(pool: pool).map { a in
            var id = a.id
            return id.withUTF8(PlanShares.idHash)
        })
        let scan = PlanShares.Scan(share: share, options: PlanShares.digest(options), inputs: TilePlan.fingerprints(options.resolvingPaths, hashing: false),
                                   territoryBox: inputs.territory?.footprint.bbox,
                                   buildings: layer(inputs.buildings, inputs.buildingSource, extent: extents.buildings),
                                   addresses: layer(inputs.addresses, inputs.addressSource, extent: extents.addresses),
                                   buildingIDWords: buildingIDs.count)
        try PlanShares.write(scan, words: buildingIDs + addressIDs, to: path)
    }

    /// The measure of `share` in the frame the driver made of the scans (`framePath`): written to
    /// `path` and its sidecar.
    public func measureShare(_ share: SourceShare, frame framePath: String, to path: String) throws {
        guard let bytes = FileManager.default.contents(atPath: framePath) else { throw InputError("plan: cannot read \(framePath) (the shares' frame)") }
        let verdict = try PlanShares.read(PlanShares.Frame.self, framePath, what: "frame")
        guard verdict.options == PlanShares.digest(options), verdict.shares == share.count else {
            throw InputError("plan: \(framePath) is the frame of other options or another count of shares than share \(share)")
        }
        guard let frame = verdict.frame else { throw InputError("plan: \(framePath) has no frame: \(verdict.whole ?? "")") }
        let (pipeline, clock, pool) = try shareRun()
        var inputs = try pipeline.readAndIngest(clock, pool, share: share)
        let layers = pipeline.frameStage(&inputs, frame: frame, clock, pool)
        let points = layers.points!, footprints = layers.footprints!
        var extent = BBox.empty, cells: [Int64: Double] = [:]
        for p in points { extent.extend(p) }
        for i in 0..<footprints.count {
            let box = footprints[i].bbox
            extent.extend(box)
            let diagonal = box.diagonal
            for x in PlanShares.cell(box.minX)...PlanShares.cell(box.maxX) {
                for y in PlanShares.cell(box.minY)...PlanShares.cell(box.maxY) {
                    cells[PlanShares.key(x, y), default: 0] = max(cells[PlanShares.key(x, y)] ?? 0, diagonal)
                }
            }
        }
        var heights: [Double] = [], perLevel: [Double] = []
        for b in layers.buildingRows!.restore(pool: pool) {
            guard let h = b.height, h > 0 else { continue }
            heights.append(h)
            if let l = b.levels, l >= 1 { perLevel.append(h / Double(l)) }
        }
        heights.sort()
        perLevel.sort()
        var sample: [UInt64] = []
        for (a, p) in zip(layers.addressRows!.restore(pool: pool), points) where a.sourceRow % verdict.sampleStride == 0 {
            sample += [UInt64(a.sourceRow), p.x.bitPattern, p.y.bitPattern]
        }
        let measure = PlanShares.Measure(
            share: share, frame: SHA256.hash([UInt8](bytes)), buildings: footprints.count, addresses: points.count, repaired: layers.repaired,
            outsideBuildings: layers.outsideBuildings + (inputs.buildingSource.parquet?.rowsSkippedByBBox ?? 0),
            outsideAddresses: layers.outsideAddresses + (inputs.addressSource.parquet?.rowsSkippedByBBox ?? 0),
            buildingRejects: layers.buildingRejects, extent: extent,
            cells: cells.keys.sorted().map { .init(x: Int32(truncatingIfNeeded: $0 >> 32), y: Int32(truncatingIfNeeded: $0), longest: cells[$0]!) },
            heights: heights.count, perLevel: perLevel.count, sample: sample.count / 3)
        try PlanShares.write(measure, words: heights.map(\.bitPattern) + perLevel.map(\.bitPattern) + sample, to: path)
    }

    /// A share's pass reads as the plan reads: the run's links only, nothing written.
    private func shareRun() throws -> (LinkPipeline, Clock, WorkerPool) {
        try options.validate()
        guard options.tile == nil, options.decisionsDirectory == nil else { throw InputError("plan: give the sources, not a tile or decisions") }
        var quiet = options
        quiet.only = .links
        quiet.outputDirectory = ""
        return (LinkPipeline(options: quiet, observer: observer), Clock(), WorkerPool(threads: options.threads))
    }
}

extension PlanShares {
    /// The cell of a coordinate (metres in the frame).
    static func cell(_ v: Double) -> Int32 { Int32(clamping: Int((v / cellSize).rounded(.down))) }
}
