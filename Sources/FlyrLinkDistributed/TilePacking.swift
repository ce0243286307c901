import FlyrLink
import Foundation

/// What a plan keeps of the layers it cuts into tiles' packs (`TilePack`), taken from the ingest
/// before the frame stage moves the geometry into the frame, and the writing of every tile's packs.
///
/// A tile's pack holds the rows whose geometry meets the widest of its halos (buildings by
/// their box in the frame, before repair: MakeValid's result lies within the footprint's box;
/// addresses by their point), a metre wider for rounding: a superset of what each of its passes
/// keeps (`TileScope.cut` makes the exact cut, as after a read of row groups).
final class TilePacking {
    struct Kept<Row: CompressibleRow> {
        var rows: [Row]
        /// The lon/lat footprints (buildings) or points (addresses), as the ingest made them.
        var footprints: FootprintStore?
        var points: [Point2]?
        /// Each row's box in the frame (a point's box, for an address).
        var boxes: [BBox]
        var header: TilePack.Header
    }

    let buildings: Kept<Building>?
    let addresses: Kept<AddressPoint>?

    /// The layers named in `packing` kept from `ingested` (which the frame stage takes afterwards).
    init(_ ingested: IngestedLayers, packing: Set<LayerRole>, frame: LocalMetricFrame, pool: WorkerPool) {
        let tm = frame.transverseMercator
        func header(_ layer: LayerRole, _ rows: Int, _ source: InputSources.Layer) -> TilePack.Header {
            TilePack.Header(layer: layer, tile: -1, rows: rows, source: source.source.spec.description, crs: source.crs,
                            crsAssumed: source.crsAssumed, generatedIDs: source.generatedIDs)
        }
        buildings = packing.contains(.buildings) ? {
            let lonLat = ingested.footprints
            let boxes = pool.map(lonLat.count, chunkSize: 4096) { _, i in
                var box = BBox.empty
                for p in lonLat[i].points { box.extend(tm.forward(p)) }
                return box
            }
            return Kept(rows: ingested.buildingRows.decompressed(pool: pool), footprints: FootprintStore(lonLat, order: nil, pool: pool), points: nil,
                        boxes: boxes, header: header(.buildings, lonLat.count, ingested.sources.buildings))
        }() : nil
        addresses = packing.contains(.addresses) ? {
            let points = ingested.points
            let boxes = pool.map(points.count, chunkSize: 16_384) { _, i in
                let p = tm.forward(points[i])
                return BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
            }
            return Kept(rows: ingested.addressRows.decompressed(pool: pool), footprints: nil, points: points, boxes: boxes,
                        header: header(.addresses, points.count, ingested.sources.addresses))
        }() : nil
    }

    var layers: [LayerRole] { (buildings == nil ? [] : [.buildings]) + (addresses == nil ? [] : [.addresses]) }

    /// Every tile's packs written into `directory` (which exists), each file synced and closed;
    /// each tile's packs' SHA-256 by layer.
    func write(_ tiles: [TilePlan.Tile], to directory: String, pool: WorkerPool) throws -> [[LayerRole: String]] {
        let buildingGrid = buildings.map { BoxGrid(boxes: $0.boxes, cellSize: 500, pool: pool) }
        let addressGrid = addresses.map { BoxGrid(boxes: $0.boxes, cellSize: 500, pool: pool) }
        // (The grid leaves out a box with a side not finite: a point projected from beyond the
        // frame's reach. Each tile tests those itself, as its cut would.)
        func outsideGrid(_ boxes: [BBox]) -> [Int] {
            boxes.indices.filter { i in
                let b = boxes[i]
                return !b.isEmpty && !(b.minX.isFinite && b.maxX.isFinite && b.minY.isFinite && b.maxY.isFinite)
            }
        }
        let buildingsOutside = buildings.map { outsideGrid($0.boxes) } ?? [], addressesOutside = addresses.map { outsideGrid($0.boxes) } ?? []
        // One tile to a worker at a time (a tile's rows are a chunk or two: their packing is not split).
        let written = pool.map(tiles.count, chunkSize: 1, workerState: { WorkerPool(threads: 1) }) { _, serial, t -> Result<[LayerRole: String], Error> in
            let tile = tiles[t]
            var digests: [LayerRole: String] = [:]
            func members(_ grid: BoxGrid, _ boxes: [BBox], _ outside: [Int], within margin: Double) -> [Int] {
                var found: [Int] = []
                grid.search(tile.bounds.box(expandedBy: margin)) { i, _ in if tile.bounds.meets(boxes[i], within: margin) { found.append(i) } }
                for i in outside where tile.bounds.meets(boxes[i], within: margin) { found.append(i) }
                return found.sorted()
            }
            do {
                if let kept = buildings, let grid = buildingGrid {
                    let margin = max(tile.linkHalo.buildings, tile.measureHalo.buildings) + 1
                    let found = members(grid, kept.boxes, buildingsOutside, within: margin)
                    let rows = CompressedRows(compressing: found.map { kept.rows[$0] }, pool: serial)
                    let footprints = CompressedFootprints(compressing: kept.footprints!, buildings: found.map { Int32($0) }, pool: serial)
                    digests[.buildings] = try Self.write(kept.header, tile: t, count: found.count, to: directory) {
                        TilePack.bytes($0, rows: rows, footprints: footprints, points: nil)
                    }
                }
                if let kept = addresses, let grid = addressGrid {
                    let margin = max(tile.linkHalo.addresses, tile.measureHalo.addresses) + 1
                    let found = members(grid, kept.boxes, addressesOutside, within: margin)
                    let rows = CompressedRows(compressing: found.map { kept.rows[$0] }, pool: serial)
                    digests[.addresses] = try Self.write(kept.header, tile: t, count: found.count, to: directory) {
                        TilePack.bytes($0, rows: rows, footprints: nil, points: found.map { kept.points![$0] })
                    }
                }
                return .success(digests)
            } catch {
                return .failure(error)
            }
        }
        return try written.map { try $0.get() }
    }

    /// Tile `tile`'s pack of `header`'s layer, of `count` rows, made by `bytes`: written, synced
    /// and closed; its SHA-256.
    private static func write(_ header: TilePack.Header, tile: Int, count: Int, to directory: String,
                              bytes: (TilePack.Header) -> [UInt8]) throws -> String {
        var header = header
        header.tile = tile
        header.rows = count
        let pack = bytes(header)
        let path = directory + "/" + TilePack.fileName(tile: tile, layer: header.layer)
        do { try ByteWriter.write(pack, to: path) } catch { throw OutputError("plan: \(error)") }
        return SHA256.hash(pack)
    }
}
