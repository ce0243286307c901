import FlyrLink
import Foundation

/// The two passes of a plan made on the cluster over one share of the sources (`PlanShares`).
extension Planner {
    /// The scan of `share`: its rows read and ingested as a run ingests them; its counts, extents,
    /// rejects, and its accepted ids' hashes (sorted), written to `path` and its sidecar.
    public func scanShare(_ share: SourceShare, to path: String) throws {
        let (reading, clock, pool) = try planReading()
        let ingested = try reading.ingestStage(reading.readStage(clock, pool, share: share), clock, pool)
        let extents = LinkPipeline.extents(ingested.points, ingested.footprints, pool: pool)
        func layer(_ source: InputSources.Layer, accepted: Int, extent: BBox) -> PlanShares.LayerScan {
            PlanShares.LayerScan(source: source.source, crs: source.crs, crsAssumed: source.crsAssumed, generatedIDs: source.generatedIDs,
                                 accepted: accepted, extent: extent, rejects: source.rejects, repeats: Self.repeats(source.rejects))
        }
        let buildingIDs = PlanShares.sortedIDHashes(ingested.buildingRows.decompressed(pool: pool))
        let addressIDs = PlanShares.sortedIDHashes(ingested.addressRows.decompressed(pool: pool))
        let sources = ingested.sources
        let scan = PlanShares.Scan(share: share, options: PlanShares.digest(options), inputs: TilePlan.fingerprints(options.resolvingPaths, hashing: false),
                                   wholeReadsInShares: [options.buildings, options.addresses].allSatisfy { SourceReader.readsInShares($0, parquet: options.parquetReader) },
                                   territoryBox: sources.territory?.footprint.bbox,
                                   buildings: layer(sources.buildings, accepted: ingested.buildingRows.count, extent: extents.buildings),
                                   addresses: layer(sources.addresses, accepted: ingested.addressRows.count, extent: extents.addresses),
                                   buildingIDWords: buildingIDs.count)
        try PlanShares.write(scan, words: buildingIDs + addressIDs, to: path)
    }

    /// The measure of `share` in the frame the driver made of the scans (`framePath`): written to
    /// `path` and its sidecar.
    public func measureShare(_ share: SourceShare, frame framePath: String, to path: String) throws {
        let (verdict, digest) = try PlanShares.Frame.read(framePath)
        guard verdict.options == PlanShares.digest(options), verdict.shares == share.count else {
            throw InputError("plan: \(framePath) is the frame of other options or another count of shares than share \(share)")
        }
        guard let frame = verdict.frame else { throw InputError("plan: \(framePath) has no frame: \(verdict.whole ?? "")") }
        let (reading, clock, pool) = try planReading()
        let ingested = try reading.ingestStage(reading.readStage(clock, pool, share: share), clock, pool)
        let sources = ingested.sources
        let (metric, addressRows, records) = reading.frameStage(consume ingested, frame: frame, clock, pool)
        let points = metric.points, footprints = metric.footprints
        var extent = BBox.empty, cells = PlanShares.Cells()
        for p in points { extent.extend(p) }
        for i in 0..<footprints.count {
            let box = footprints[i].bbox
            extent.extend(box)
            cells.add(box)
        }
        let outside = LinkPipeline.outside(sources, records.account)
        let (heights, perLevel) = HeightCheck.sortedHeights(records.buildingRows.decompressed(pool: pool))
        var sample: [UInt64] = []
        sample.reserveCapacity(3 * (points.count / verdict.sampleStride + 1))
        for (a, p) in zip(addressRows.decompressed(pool: pool), points) where a.sourceRow % verdict.sampleStride == 0 {
            sample.append(UInt64(a.sourceRow))
            sample.append(p.x.bitPattern)
            sample.append(p.y.bitPattern)
        }
        let measure = PlanShares.Measure(
            share: share, frame: digest, inputs: TilePlan.fingerprints(options.resolvingPaths, hashing: false), buildings: footprints.count, addresses: points.count, repaired: records.account.repaired,
            outsideBuildings: outside.buildings, outsideAddresses: outside.addresses,
            buildingRejects: records.account.buildingRejects, extent: extent,
            cells: cells.longest.keys.sorted().map { .init(x: Int32(truncatingIfNeeded: $0 >> 32), y: Int32(truncatingIfNeeded: $0), longest: cells.longest[$0]!) },
            oversized: cells.oversized,
            heights: heights.count, perLevel: perLevel.count, sample: sample.count / 3)
        try PlanShares.write(measure, words: heights.map(\.bitPattern) + perLevel.map(\.bitPattern) + sample, to: path)
    }
}

extension PlanShares {
    /// The longest building box that meets each 500 m cell (a box over more than `maxSpan` cells a
    /// side, kept whole instead, as `BoxGrid` keeps its oversized boxes: one stray footprint across
    /// a country must not fill the table).
    struct Cells {
        static let maxSpan = 64
        var longest: [Int64: Double] = [:]
        var oversized: [BBox] = []

        mutating func add(_ box: BBox) {
            guard !box.isEmpty else { return }
            guard let (xs, ys) = cells(of: box), xs.count <= Self.maxSpan, ys.count <= Self.maxSpan else {
                oversized.append(box)
                return
            }
            for cx in xs {
                for cy in ys { note(key(cx, cy), box.diagonal) }
            }
        }

        mutating func note(_ key: Int64, _ diagonal: Double) {
            if diagonal > longest[key, default: 0] { longest[key] = diagonal }
        }

        /// The longest diagonal of the boxes that meet the tile `bounds` within `reach` (or more:
        /// every box of every cell the region's box meets), the region clipped to `extent`.
        func longest(near bounds: TileBounds, within reach: Double, extent: BBox) -> Double {
            var found = 0.0
            for box in oversized where bounds.meets(box, within: reach) { found = max(found, box.diagonal) }
            let region = bounds.box(expandedBy: reach)
            let clipped = BBox(minX: max(region.minX, extent.minX), minY: max(region.minY, extent.minY),
                               maxX: min(region.maxX, extent.maxX), maxY: min(region.maxY, extent.maxY))
            guard !clipped.isEmpty, let (xs, ys) = cells(of: clipped) else { return found }
            // (A sparse edge tile's region holds more cells than the run has: the table is walked.)
            if xs.count * ys.count > longest.count {
                for (key, d) in longest where xs.contains(Int(key >> 32)) && ys.contains(Int(Int32(truncatingIfNeeded: key))) {
                    found = max(found, d)
                }
                return found
            }
            for cx in xs {
                for cy in ys { found = max(found, longest[key(cx, cy)] ?? 0) }
            }
            return found
        }
    }

    /// The cells a box meets, by column and row; nil where no cell holds it (not finite, or beyond
    /// 2³⁰ cells: a frame is a few thousand kilometres).
    static func cells(of box: BBox) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        func cell(_ v: Double) -> Int? {
            let c = (v / cellSize).rounded(.down)
            return c.isFinite && abs(c) < 1_073_741_824 ? Int(c) : nil
        }
        guard let x0 = cell(box.minX), let x1 = cell(box.maxX), let y0 = cell(box.minY), let y1 = cell(box.maxY) else { return nil }
        return (x0...x1, y0...y1)
    }

    /// A cell's key in a dictionary.
    static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(truncatingIfNeeded: y)) }
}
