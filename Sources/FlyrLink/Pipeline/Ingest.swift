import Foundation

/// Turns source tables into accepted addresses and buildings in EPSG:4326, writing a reject for
/// every row that cannot be used. Judges geometry type, emptiness, CRS range and ids.
package struct Ingest {
    /// A layer as ingested; `Geometry`: its footprints (buildings) or points (addresses).
    package struct Result<T: CompressibleRow, Geometry> {
        /// The accepted rows in id order, compressed until the stages that read them (`CompressedRows`).
        var rows: CompressedRows<T>
        var rejects: [Reject]
        /// The CRS used for the source, and whether it was assumed (the source had none).
        var crs: String
        var crsAssumed: Bool
        var generatedIDs: Int
        /// The rows' geometry in EPSG:4326, in their order.
        var geometry: Geometry

        package init(rows: CompressedRows<T>, rejects: [Reject], crs: String, crsAssumed: Bool, generatedIDs: Int, geometry: Geometry) {
            self.rows = rows
            self.rejects = rejects
            self.crs = crs
            self.crsAssumed = crsAssumed
            self.generatedIDs = generatedIDs
            self.geometry = geometry
        }
    }

    /// Picks the source CRS: the override, the source's own, or EPSG:4326 when the coordinates are
    /// lon/lat but for a stray few (their rows rejected); anything else is an error, not a guess.
    static func sourceCRS(_ table: SourceTable, sample: [Point2]) throws(InputError) -> (String, Bool) {
        if let crs = table.spec.crs { return (crs, false) }
        if let crs = table.crsDefinition, !table.crsIsFormatDefault { return (crs, false) }
        func isLonLat(_ p: Point2) -> Bool { abs(p.x) <= 180 && abs(p.y) <= 90 }
        let lonLat = sample.count(where: isLonLat), other = sample.count - lonLat
        if let implied = table.crsDefinition {
            // GeoJSON without `crs` is lon/lat by definition (RFC 7946): kept when most coordinates are,
            // otherwise asked like any source without a CRS.
            if 2 * lonLat >= sample.count { return (implied, false) }
        } else if other == 0 || (lonLat > 0 && other <= max(1, sample.count / 100)) {
            // (A source in metres has few coordinates, if any, within ±180/±90: not 99 in 100.)
            return ("EPSG:4326", true)
        }
        let option = "--\(table.role.rawValue)-crs"
        if lonLat > 0, table.crsDefinition == nil, let first = sample.first(where: { !isLonLat($0) }) {
            throw InputError("\(table.role.rawValue): \(table.spec.description) has no CRS, and \(other) of its first \(sample.count) coordinates are not longitude/latitude (the first: \(first.x), \(first.y)) while \(lonLat) are: fix those rows, or give its CRS with \(option)")
        }
        throw InputError("\(table.role.rawValue): \(table.spec.description) has no CRS and its coordinates are not longitude/latitude; give one with \(option) (e.g. EPSG:25832)")
    }

    static func transformer(for table: SourceTable, sample: [Point2]) throws(InputError) -> (CoordinateTransformer, String, Bool) {
        let (crs, assumed) = try sourceCRS(table, sample: sample)
        return (try transformer(from: crs, table: table), crs, assumed)
    }

    /// The source CRS, checked usable: WGS 84 lon/lat as it is (no transformation to make), any
    /// other by making its transformation to lon/lat.
    static func usableCRS(for table: SourceTable, sample: [Point2]) throws(InputError) -> (String, Bool) {
        let (crs, assumed) = try sourceCRS(table, sample: sample)
        if !CRSInfo.isWGS84(crs) { _ = try transformer(from: crs, table: table) }
        return (crs, assumed)
    }

    private static func transformer(from crs: String, table: SourceTable) throws(InputError) -> CoordinateTransformer {
        do {
            return try CoordinateTransformer(from: crs, to: "EPSG:4326")
        } catch {
            throw InputError("\(table.role.rawValue): CRS of \(table.spec.description) is not usable: \(error.message)")
        }
    }

    /// Brings geometry from the source CRS to lon/lat on the workers.
    static func toLonLat(_ points: [Point2], table: SourceTable, pool: WorkerPool) throws(InputError) -> ([Point2], String, Bool) {
        let (crs, assumed) = try usableCRS(for: table, sample: Array(points.prefix(1000)))
        if CRSInfo.isWGS84(crs) { return (points, crs, assumed) }  // already lon/lat: keep the exact input values
        do {
            return (try ParallelProjection.points(points, pool: pool) { () throws(ProjectionError) in
                try CoordinateTransformer(from: crs, to: "EPSG:4326")
            }, crs, assumed)
        } catch {
            throw InputError("\(table.role.rawValue): \(error.message)")
        }
    }

    /// Every point of the store from the source CRS to lon/lat, in place, on the workers.
    static func toLonLat(_ footprints: FootprintStore, table: SourceTable, crs: String, pool: WorkerPool) throws(InputError) {
        do {
            try footprints.withMutablePoints { (points) throws(ProjectionError) in
                try ParallelProjection.inPlace(points, pool: pool) { () throws(ProjectionError) in
                    try CoordinateTransformer(from: crs, to: "EPSG:4326")
                }
            }
        } catch {
            throw InputError("\(table.role.rawValue): \(error.message)")
        }
    }

    static func inRange(_ p: Point2) -> Bool {
        p.isFinite && abs(p.x) <= 180 && abs(p.y) <= 90
    }

    // MARK: addresses

    /// Addresses taken batch by batch as read, points in the source CRS until `sortIDs`; rows are
    /// compressed as they come, each with its id order key, so they are not held beside the keys' sort.
    final class AddressIntake {
        private let layer = "addresses"
        private let compressed = CompressedRows<AddressPoint>.Builder()
        /// Every row's id order key, made as it is read (`IDOrder.keptOrder` sorts them while
        /// the rows stay compressed).
        private var keys: [IDOrder.Keyed] = []
        /// What `sortIDs` leaves for `finish`.
        private var sorted: (rows: CompressedRows<AddressPoint>, order: [Int32], crs: String, assumed: Bool, generated: Int)?
        /// Row k's point (in the source's CRS until `finish`).
        private var locations: [Point2] = []
        private var rejects: [Reject] = []
        /// Rows without an id of their own, with the values their content id is made from.
        private var unnamed: [(item: Int, content: [String?])] = []
        /// Which of the fields (`AddressField` order) the rows keep; nil: all.
        private let kept: [Bool]?
        /// A batch's records (id and fields), made into one slab that its rows share.
        private var fields = PackedFields.Builder()
        private var batchRows: [(fields: UInt32?, row: Int, location: Point2)] = []

        /// Set once the layer holds more rows than one process can (`LayerLimits`): the rest are
        /// dropped as they come, and `sortIDs` says so.
        private var tooMany: String?
        private let limits: LayerLimits
        private var consumed = 0

        /// `keeping`: the fields the run reads or writes (nil: all; the id always); the others are
        /// dropped as they are read.
        init(keeping: Set<AddressField>? = nil, limits: LayerLimits = LayerLimits()) {
            kept = keeping.map { keep in AddressField.allCases.map { $0 == .id || keep.contains($0) } }
            self.limits = limits
        }

        /// About `n` rows in all: room made once, on huge pages (the id ordering reads them in random order).
        func expect(_ n: Int) {
            locations.reserveCapacity(n)
            HugePages.advise(&locations)
            keys.reserveCapacity(n)
        }

        func consume(_ batch: inout [SourceTable.Record]) {
            batchRows.removeAll(keepingCapacity: true)
            guard tooMany == nil else { return }
            for r in batch.indices {
                consumed += 1
                if consumed > limits.rows { tooMany = limits.tooManyRows(); break }
                let rawID = batch[r].values[0], ordinal = batch[r].ordinal
                if let problem = Ingest.rowProblem(id: rawID, batch[r]) {
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: Ingest.rejectedID(rawID), reason: problem))
                    continue
                }
                let location: Point2
                switch batch[r].geometry {
                case .point(let p)?:
                    location = p
                case .multiPoint(let pts)? where pts.count == 1:
                    location = pts[0]
                default:
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: rawID, reason: Ingest.addressGeometryProblem(batch[r])))
                    continue
                }
                if let field = Ingest.fieldWithNUL(batch[r].values, kept: kept) {
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: rawID, reason: "\(field) contains a NUL byte"))
                    continue
                }
                // Taken from the record (no reference left, so trimming in place copies nothing);
                // the batch's rows pack them into one slab.
                var values: [String?] = []
                swap(&values, &batch[r].values)
                // (A content id is made from every value, whichever the run keeps.)
                let hasID = Ingest.isID(rawID)
                if !hasID { unnamed.append((keys.count + batchRows.count, Array(values.dropFirst()))) }
                // The id as it is (byte for byte), or none (an id made later); the kept values
                // trimmed, an empty one none.
                values[0] = hasID ? rawID : nil
                for k in values.indices.dropFirst() {
                    if let kept, !kept[k] { values[k] = nil; continue }
                    if let v = values[k] {
                        let t = trimmed(v)
                        values[k] = t.isEmpty ? nil : t
                    }
                }
                batchRows.append((fields.append(values), ordinal, location))
            }
            let slab = fields.finish()
            for row in batchRows {
                let address = AddressPoint(packed: PackedFields(slab, at: row.fields), sourceRow: row.row)
                keys.append(IDOrder.keyed(address, index: keys.count))
                compressed.append(address)
                locations.append(row.location)
            }
        }

        /// Points to lon/lat, out-of-range ones rejected, unnamed rows named, ids ordered; `finish` then
        /// reorders the points. Two steps, so no layer's keys are held beside the footprints' reordering.
        func sortIDs(_ table: SourceTable, pool: WorkerPool) throws(InputError) {
            if let tooMany { throw InputError("\(layer): \(table.spec.description): \(tooMany)") }
            let rows = compressed.finish()
            let (crs, assumed) = try usableCRS(for: table, sample: Array(locations.prefix(1000)))
            // Points already in lon/lat keep their exact input values, where they are; the others
            // are projected, their source coordinates kept for the rejects' text.
            var source: [Point2] = []
            if !CRSInfo.isWGS84(crs) {
                source = locations
                (locations, _, _) = try toLonLat(source, table: table, pool: pool)
            }
            let outside = locations.map { !inRange($0) }
            var ids = IDRegistry(layer: layer)
            let named = Ingest.named(rows, keys: &keys, outside: outside, unnamed: unnamed.map(\.item), pool: pool) { items in
                for k in items.indices where outside[k] {
                    let p = source.isEmpty ? locations[k] : source[k]
                    rejects.append(Reject(layer: layer, sourceRow: items[k].sourceRow, id: items[k].id.isEmpty ? nil : items[k].id,
                                          reason: "coordinates (\(p.x), \(p.y)) outside the valid range of its CRS"))
                }
                for (k, content) in unnamed where !outside[k] {
                    items[k].id = ids.generate(content: content, at: [locations[k]])
                }
            }
            let order = IDOrder.keptOrder(&keys, compressed: named, dropping: outside, layer: layer, rejects: &rejects, pool: pool)
            sorted = (named, order, crs, assumed, ids.generated)
        }

        func finish(pool: WorkerPool) -> Result<AddressPoint, [Point2]> {
            let (rows, order, crs, assumed, generated) = sorted!
            sorted = nil
            var points: [Point2] = []
            swap(&points, &locations)
            return Ingest.ordered(rows, order: order, rejects: rejects, crs: crs, assumed: assumed, generated: generated) { order in
                pool.map(order.count, chunkSize: 65_536) { _, k in points[Int(order[k])] }
            }
        }
    }

    static func addressGeometryProblem(_ record: SourceTable.Record) -> String {
        switch record.geometry {
        case nil: return missingGeometryReason(record)
        case .multiPoint(let pts)?: return "MultiPoint with \(pts.count) points; an address must be one point"
        case .empty(let type)?: return "empty \(type)"
        case .polygons?: return "geometry is a polygon; an address must be a point"
        case .other(let type)?: return "geometry is a \(type); an address must be a point"
        case .point?: return "point"  // not a problem; not asked
        }
    }

    // MARK: buildings

    /// Buildings taken batch by batch as read; footprints in the source CRS until `finish`, in a store
    /// beside the rows (row k's is the k-th); rows compressed as they come, as the addresses'.
    final class BuildingIntake {
        private let layer = "buildings"
        private let compressed = CompressedRows<Building>.Builder()
        /// (As the addresses'.)
        private var keys: [IDOrder.Keyed] = []
        private let footprints = FootprintStore.Builder()
        private var rejects: [Reject] = []
        /// Rows without an id of their own.
        private var unnamed: [Int] = []
        /// A batch's ids, made into one slab that its rows share; the rows wait for it.
        private var ids = PackedFields.Builder()
        private var batchRows: [(id: UInt32?, height: Double?, levels: Int?, type: BuildingType, row: Int)] = []
        /// Metres per unit of the height field (`--height-unit`).
        private let heightScale: Double

        /// (As the addresses'.)
        private var tooMany: String?
        private let limits: LayerLimits
        private var consumed = 0

        init(heightScale: Double = 1, limits: LayerLimits = LayerLimits()) {
            self.heightScale = heightScale
            self.limits = limits
        }

        /// About `n` rows in all: room for their keys made once.
        func expect(_ n: Int) { keys.reserveCapacity(n) }

        func consume(_ batch: inout [SourceTable.Record]) {
            batchRows.removeAll(keepingCapacity: true)
            guard tooMany == nil else { return }
            records: for r in batch.indices {
                consumed += 1
                if consumed > limits.rows { tooMany = limits.tooManyRows(); break }
                // The geometry and values moved out of the record (no reference count per array copied).
                var geometry: SourceGeometry?, values: [String?] = []
                swap(&geometry, &batch[r].geometry)
                swap(&values, &batch[r].values)
                let ordinal = batch[r].ordinal
                let rawID = values[0]
                if let problem = Ingest.rowProblem(id: rawID, batch[r]) {
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: Ingest.rejectedID(rawID), reason: problem))
                    continue
                }
                switch geometry {
                case nil:
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: rawID, reason: missingGeometryReason(batch[r])))
                case .polygons(let footprint)?:
                    // The usual footprint is closed and clean as read: taken as it is.
                    var usable = footprint
                    if !Ingest.isClosedAndClean(footprint) {
                        let polygons = footprint.polygons.compactMap(closedPolygon)
                        guard !polygons.isEmpty else {
                            rejects.append(Reject(layer: layer, sourceRow: ordinal, id: rawID, reason: "degenerate footprint (fewer than 3 distinct vertices)"))
                            continue
                        }
                        usable = Footprint(polygons: polygons)
                    }
                    guard footprints.points + usable.points.count <= limits.points else { tooMany = limits.tooManyPoints(); break records }
                    let hasID = Ingest.isID(rawID)
                    if !hasID { unnamed.append(keys.count + batchRows.count) }
                    batchRows.append((ids.append([hasID ? rawID : nil]), values[1].flatMap(parseNumber).map { heightScale == 1 ? $0 : $0 * heightScale },
                                      values[2].flatMap(parseNumber).flatMap { Int(exactly: $0.rounded()) }, BuildingType(tag: values[3]), ordinal))
                    footprints.append(usable)
                case .empty(let type)?:
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: rawID, reason: "empty \(type)"))
                case .point?, .multiPoint?:
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: rawID, reason: "geometry is a point; a building must be a Polygon or MultiPolygon"))
                case .other(let type)?:
                    rejects.append(Reject(layer: layer, sourceRow: ordinal, id: rawID, reason: "geometry is a \(type); a building must be a Polygon or MultiPolygon"))
                }
            }
            let slab = ids.finish()
            for row in batchRows {
                let building = Building(packedID: PackedFields(slab, at: row.id), height: row.height, levels: row.levels, type: row.type,
                                        sourceRow: row.row)
                keys.append(IDOrder.keyed(building, index: keys.count))
                compressed.append(building)
            }
        }

        /// Brings the footprints to lon/lat, rejects those outside the CRS's range, names the rows
        /// without ids and orders everything by id.
        func finish(_ table: SourceTable, pool: WorkerPool) throws(InputError) -> Result<Building, FootprintStore> {
            if let tooMany { throw InputError("\(layer): \(table.spec.description): \(tooMany)") }
            let footprints = footprints.finish()
            let sample = (0..<min(footprints.count, 1000)).flatMap { footprints[$0].points }
            let (crs, assumed) = try usableCRS(for: table, sample: sample)
            if !CRSInfo.isWGS84(crs) { try toLonLat(footprints, table: table, crs: crs, pool: pool) }
            let outside = pool.map(footprints.count, chunkSize: 16_384) { _, k in !footprints[k].points.allSatisfy(inRange) }
            var ids = IDRegistry(layer: layer)
            let rows = Ingest.named(compressed.finish(), keys: &keys, outside: outside, unnamed: unnamed, pool: pool) { items in
                for k in items.indices where outside[k] {
                    rejects.append(Reject(layer: layer, sourceRow: items[k].sourceRow, id: items[k].id.isEmpty ? nil : items[k].id,
                                          reason: "coordinates outside the valid range of its CRS"))
                }
                for k in unnamed where !outside[k] {
                    items[k].id = ids.generate(content: [], at: footprints.footprint(k).polygons.flatMap(\.shell))
                }
            }
            let order = IDOrder.keptOrder(&keys, compressed: rows, dropping: outside, layer: layer, rejects: &rejects, pool: pool)
            return Ingest.ordered(rows, order: order, rejects: rejects, crs: crs, assumed: assumed, generated: ids.generated) { order in
                FootprintStore(footprints, order: order, pool: pool, consumingSource: true)
            }
        }
    }

    /// The compressed rows with `fix` (rejects for `outside`, ids for `unnamed`) applied when needed:
    /// decompressed, fixed, compressed again with their keys made anew.
    static func named<T: Identified & CompressibleRow>(_ rows: CompressedRows<T>, keys: inout [IDOrder.Keyed], outside: [Bool], unnamed: [Int],
                                                   pool: WorkerPool, _ fix: (inout [T]) -> Void) -> CompressedRows<T> {
        guard outside.contains(true) || !unnamed.isEmpty else { return rows }
        var items = rows.decompressed(pool: pool)
        fix(&items)
        keys = items.indices.map { IDOrder.keyed(items[$0], index: $0) }
        return CompressedRows(compressing: items, pool: pool)
    }

    /// The rows and their geometry (`reordered`) put in `order` (id order, `IDOrder.keptOrder`): outputs
    /// follow ids, not the source's row order, so the same data gives the same bytes from any format.
    static func ordered<T: Identified & CompressibleRow, Geometry>(_ compressed: CompressedRows<T>, order: [Int32], rejects: [Reject], crs: String,
                                                               assumed: Bool, generated: Int,
                                                               reordered: (_ order: [Int32]) -> Geometry) -> Result<T, Geometry> {
        compressed.arrange(order)
        let rejects = rejects.sorted { $0.sourceRow < $1.sourceRow }
        return Result(rows: compressed, rejects: rejects, crs: crs, crsAssumed: assumed, generatedIDs: generated, geometry: reordered(order))
    }

    /// An accepted row: its id and where it came from.
    package protocol Identified {
        var id: String { get }
        /// The id's UTF-8 bytes where they are kept (no String made).
        func withIDUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
        var sourceRow: Int { get }
    }

    /// Why a row is rejected whatever its geometry: it is not a feature, or its id has a NUL byte
    /// (GeoPackage and FlatGeobuf cut a text at one, PostgreSQL refuses it: no format keeps it).
    static func rowProblem(id: String?, _ record: SourceTable.Record) -> String? {
        if let id, id.utf8.contains(0) { return "id contains a NUL byte" }
        return record.notAFeature
    }

    /// The first value the run keeps, after the id, that holds a NUL byte: its field's name.
    static func fieldWithNUL(_ values: [String?], kept: [Bool]?) -> String? {
        for k in values.indices.dropFirst() where kept?[k] ?? true {
            if let v = values[k], v.utf8.contains(0) { return AddressField.allCases[k].rawValue }
        }
        return nil
    }

    /// A rejected row's id as rejects.csv names it: none when it has a NUL byte.
    static func rejectedID(_ id: String?) -> String? {
        guard let id, !id.utf8.contains(0) else { return nil }
        return id
    }

    /// Whether a source value is an id: ids are kept byte for byte (`x` and ` x` are two ids), but
    /// one that is empty or only spaces and tabs is none (the row gets a content id).
    static func isID(_ value: String?) -> Bool {
        guard let value else { return false }
        return !trimmed(value).isEmpty
    }

    /// Why a row without a usable geometry has none.
    static func missingGeometryReason(_ record: SourceTable.Record) -> String {
        record.geometryError.map { "unreadable geometry: \($0)" } ?? "no geometry"
    }

    /// Ids for rows without one of their own: content UUIDv5s. Duplicates are found afterwards,
    /// once the rows are in id order (IDOrder.keptOrder).
    struct IDRegistry {
        let layer: String
        private var contentCounts: [String: Int] = [:]
        private(set) var generated = 0

        init(layer: String) { self.layer = layer }

        /// Call in source row order: identical rows are told apart by occurrence.
        mutating func generate(content: [String?], at points: [Point2]) -> String {
            generated += 1
            return contentID(role: layer, values: content, at: points, counts: &contentCounts)
        }
    }

    /// Closes rings and drops consecutive duplicates; nil when the shell has fewer than 3 distinct vertices.
    static func closedPolygon(_ poly: Polygon) -> Polygon? {
        if poly.rings.allSatisfy(isClosedAndClean) { return poly }  // the usual case: nothing to copy
        var rings: [[Point2]] = []
        for (i, ring) in poly.rings.enumerated() {
            var r: [Point2] = []
            r.reserveCapacity(ring.count + 1)
            for p in ring where p.isFinite && r.last != p { r.append(p) }
            if let first = r.first, r.count > 1, r.last != first { r.append(first) }
            if r.count < 4 {
                if i == 0 { return nil }
                continue  // a degenerate hole is dropped
            }
            rings.append(r)
        }
        return Polygon(rings: rings)
    }

    /// Closed, at least 4 points, finite, no point repeated by its successor.
    static func isClosedAndClean(_ ring: ArraySlice<Point2>) -> Bool {
        let lo = ring.startIndex, hi = ring.endIndex - 1
        guard ring.count >= 4, ring[lo] == ring[hi], ring[lo].isFinite else { return false }
        for k in (lo + 1)...hi where ring[k] == ring[k - 1] || !ring[k].isFinite { return false }
        return true
    }

    static func isClosedAndClean(_ ring: [Point2]) -> Bool { isClosedAndClean(ring[...]) }

    /// Every polygon has a shell and every ring is closed and clean: nothing for `closedPolygon` to do.
    static func isClosedAndClean(_ footprint: Footprint) -> Bool {
        guard footprint.polygonCount > 0 else { return false }
        for p in 0..<footprint.polygonCount {
            let rings = footprint.ringsOfPolygon(p)
            guard !rings.isEmpty else { return false }
            for r in rings where !isClosedAndClean(footprint.points[footprint.ringRange(r)]) { return false }
        }
        return true
    }

    /// Without leading and trailing spaces and tabs; the string itself when it has none (the usual case).
    static func trimmed(_ s: String) -> String {
        let u = s.utf8
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        // The usual string's two ends read from its storage (`last` walks the view's indices).
        if u.withContiguousStorageIfAvailable({ b in b.isEmpty || !(isSpace(b[0]) || isSpace(b[b.count - 1])) }) == true { return s }
        guard let first = u.first, let last = u.last, isSpace(first) || isSpace(last) else { return s }
        guard let lo = u.firstIndex(where: { !isSpace($0) }), let hi = u.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(s[lo...hi])
    }

    /// "12", "12.5", "12 m" → 12, 12.5, 12.
    static func parseNumber(_ s: String) -> Double? {
        let t = trimmed(s)
        if let d = Double(t) { return d.isFinite ? d : nil }
        let prefix = t.prefix { $0.isNumber || $0 == "." || $0 == "-" }
        return Double(prefix).flatMap { $0.isFinite ? $0 : nil }
    }

    /// A deterministic UUIDv5 for a row without an id, from what the row holds (not its position,
    /// so a refresh that reorders the source keeps the ids); identical rows are told apart by occurrence.
    static func contentID(role: String, values: [String?], at points: [Point2], counts: inout [String: Int]) -> String {
        var parts = [role]
        parts += values.map { $0 ?? "" }
        parts += points.map { "\(OutputNumber.fixed($0.x, 7)),\(OutputNumber.fixed($0.y, 7))" }
        let key = parts.joined(separator: "\u{1F}")
        let n = counts[key, default: 0]
        counts[key] = n + 1
        return UUIDv5.make(parts: parts + ["\(n)"])
    }
}

extension Building: Ingest.Identified {}

extension AddressPoint: Ingest.Identified {}

/// What one process holds of a layer: 32-bit row indices and point offsets (2³¹ rows, 2³² points);
/// a larger layer is an error, not a trap (a distributed plan reads layers whole too).
struct LayerLimits: Sendable {
    var rows = Int(Int32.max)
    var points = Int(UInt32.max)

    func tooManyRows() -> String {
        "more than \(rows) rows: one process reads at most that many rows of a layer; link the territory in parts, a --territory at a time"
    }

    func tooManyPoints() -> String {
        "footprints of more than \(points) points: one process holds at most that many; link the territory in parts, a --territory at a time"
    }
}
