import FlyrLink
import Foundation

/// A tile's share of a layer the plan cut into tiles (`TilePlan.packed`): the rows one run
/// ingests (ids made, repeats rejected, geometry in lon/lat), of them those the tile's passes may
/// read, in the run's (id) order. A tile reads its pack in place of the source, so that a source
/// it cannot read in part (GeoJSON, GDAL's sources, FlatGeobuf without an index) or a layer that
/// repeats an id (which row of an id comes first, only a whole read can tell) costs each tile its
/// share, not the whole; and what it gets are the run's own rows, to the bit.
///
/// A file: one line of JSON (`Header`), then the rows (`CompressedRows`), then the geometry
/// (`CompressedFootprints`, or the points in chunks). The plan names each pack's SHA-256, and a tile
/// checks it before it reads a byte of the rest. The sizes that frame the chunks are
/// little-endian; what is inside a chunk (rows' fixed-width parts, points) is in the byte order of
/// the machine that wrote it, as in memory: a plan's packs are read by the same build on the same
/// kind of machine (x86-64 and arm64 are both little-endian).
enum TilePack {
    static let format = "flyr-link-tile-pack"
    static let version = 1

    struct Header: Codable, Equatable {
        var format = TilePack.format
        var version = TilePack.version
        var layer: LayerRole
        var tile: Int
        var rows: Int
        /// The source (as the plan names it), its CRS as the run took it, and the ids the run made
        /// for the whole layer: what the tile's report would say of it.
        var source: String
        var crs: String
        var crsAssumed: Bool
        var generatedIDs: Int
    }

    /// The layer's rows and geometry as one run ingested them (`Ingest.Result`'s parts).
    struct Layer<Row: CompressibleRow> {
        var rows: CompressedRows<Row>
        var footprints: FootprintStore?
        var points: [Point2]?
        var header: Header
    }

    /// Points in chunks of this many.
    static let pointsChunk = 65_536

    /// The name of a tile's pack of `layer`, in the plan's packs directory (`TilePlan.packsPath`).
    static func fileName(tile: Int, layer: LayerRole) -> String {
        String(format: "tile-%06d.", tile) + layer.rawValue + ".pack"
    }

    /// Whether `name` is a pack's (`fileName`).
    static func isFileName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == "pack", parts[0].hasPrefix("tile-"), LayerRole(rawValue: String(parts[1])).map({ $0 != .territory }) == true
        else { return false }
        let digits = parts[0].dropFirst(5)
        return digits.count >= 6 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The pack's bytes: `rows` (compressed in their order) and their footprints or points.
    static func bytes(_ header: Header, rows: CompressedRows<some CompressibleRow>, footprints: CompressedFootprints?, points: [Point2]?) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var bytes = [UInt8](try! encoder.encode(header))  // (strings and numbers: it always encodes)
        bytes.append(UInt8(ascii: "\n"))
        rows.append(to: &bytes)
        footprints?.append(to: &bytes)
        if let points {
            let chunks = stride(from: 0, to: points.count, by: pointsChunk).map { start in
                points[start..<min(start + pointsChunk, points.count)].withUnsafeBytes { ZstdChunk(compressing: $0) }
            }
            ZstdChunk.append(count: points.count, chunks, to: &bytes)
            chunks.forEach { $0.free() }
        }
        return bytes
    }

    /// The pack at `path`, which must be the one of SHA-256 `sha256` that the plan names for
    /// `tile`'s `layer`: one clear error otherwise.
    static func read<Row: CompressibleRow>(_ path: String, sha256: String, tile: Int, layer: LayerRole, as: Row.Type,
                                       pool: WorkerPool) throws(InputError) -> Layer<Row> {
        let bytes: [UInt8]
        do { bytes = try TileParts.contents(path, tile: tile) } catch { throw InputError("\(error)") }
        guard SHA256.hash(bytes) == sha256 else {
            throw InputError("tile \(tile): \(path) is not the pack its plan was made with (its SHA-256 differs); make the plan again")
        }
        let broken = InputError("tile \(tile): \(path) is not a whole tile pack")
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<newline])),
              header.format == format, header.version == version, header.layer == layer, header.tile == tile else { throw broken }
        // (withUnsafeBytes throws untyped errors: the pack's comes out as a Result.)
        return try bytes.withUnsafeBytes { raw -> Result<Layer<Row>, InputError> in
            var offset = newline + 1
            guard let rows = CompressedRows<Row>.read(raw, at: &offset), rows.count == header.rows else { return .failure(broken) }
            var layer = Layer(rows: rows, footprints: nil, points: nil, header: header)
            if header.layer == .buildings {
                guard let store = CompressedFootprints.store(raw, at: &offset, pool: pool), store.count == header.rows else { return .failure(broken) }
                layer.footprints = store
            } else {
                guard let (count, chunks) = ZstdChunk.read(counted: raw, perChunk: pointsChunk, at: &offset) else { return .failure(broken) }
                defer { chunks.forEach { $0.free() } }
                var points: [Point2] = []
                points.reserveCapacity(count)
                var scratch: [UInt8] = []
                for chunk in chunks {
                    let n = min(pointsChunk, count - points.count)
                    guard chunk.rawSize == 16 * n else { return .failure(broken) }
                    chunk.unpack(into: &scratch, what: "a tile pack's points")
                    scratch.withUnsafeBytes { b in
                        for i in 0..<n {
                            points.append(Point2(x: b.loadUnaligned(fromByteOffset: 16 * i, as: Double.self),
                                                 y: b.loadUnaligned(fromByteOffset: 16 * i + 8, as: Double.self)))
                        }
                    }
                }
                guard points.count == header.rows else { return .failure(broken) }
                layer.points = points
            }
            guard offset == raw.count else { return .failure(broken) }
            return .success(layer)
        }.get()
    }
}

/// A tile's packs (`TileTask.packs`), handed to the run's ingest stage in place of a read.
struct TilePacks: PackedLayers {
    let task: TileTask

    init(_ task: TileTask) {
        self.task = task
    }

    var layers: Set<LayerRole> { Set(task.packs.keys) }

    func buildings(_ spec: SourceSpec, pool: WorkerPool) throws(InputError)
        -> (result: Ingest.Result<Building, FootprintStore>, source: LinkPipeline.SourceSummary) {
        try unpacked(.buildings, spec, pool: pool) { $0.footprints! }
    }

    func addresses(_ spec: SourceSpec, pool: WorkerPool) throws(InputError)
        -> (result: Ingest.Result<AddressPoint, [Point2]>, source: LinkPipeline.SourceSummary) {
        try unpacked(.addresses, spec, pool: pool) { $0.points! }
    }

    private func unpacked<Row: CompressibleRow, Geometry>(_ layer: LayerRole, _ spec: SourceSpec, pool: WorkerPool,
                                                          _ geometry: (TilePack.Layer<Row>) -> Geometry)
        throws(InputError) -> (result: Ingest.Result<Row, Geometry>, source: LinkPipeline.SourceSummary) {
        let file = task.packs[layer]!
        let pack = try TilePack.read(file.path, sha256: file.sha256, tile: task.tile.index, layer: layer, as: Row.self, pool: pool)
        let header = pack.header
        let result = Ingest.Result(rows: pack.rows, rejects: [], crs: header.crs, crsAssumed: header.crsAssumed,
                                   generatedIDs: header.generatedIDs, geometry: geometry(pack))
        return (result, LinkPipeline.SourceSummary(spec: spec, reader: "flyr-link plan's tile pack", layerName: header.layer.rawValue,
                                                   featuresRead: header.rows, readsInParts: true))
    }
}
