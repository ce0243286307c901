import Foundation

/// Turns source tables into accepted addresses and buildings in EPSG:4326, writing a reject for
/// every row that cannot be used. Judges geometry type, emptiness, CRS range and ids.
struct Ingest {
    struct Result<T> {
        var items: [T]
        var rejects: [Reject]
        /// The CRS used for the source, and whether it was assumed (the source had none).
        var crs: String
        var crsAssumed: Bool
        var generatedIDs: Int
    }

    /// Picks the source CRS: the override, the source's own, or EPSG:4326 for a source without one
    /// whose coordinates are all longitude/latitude. Anything else is an error: guessing would be wrong.
    static func sourceCRS(_ table: SourceTable, sample: [Point2]) throws(InputError) -> (String, Bool) {
        if let crs = table.spec.crs { return (crs, false) }
        if let crs = table.crsDefinition { return (crs, false) }
        let geographic = sample.allSatisfy { abs($0.x) <= 180 && abs($0.y) <= 90 }
        if geographic { return ("EPSG:4326", true) }
        throw InputError("\(table.role.rawValue): \(table.spec.description) has no CRS and its coordinates are not longitude/latitude; give one with --\(table.role.rawValue)-crs (e.g. EPSG:25832)")
    }

    static func transformer(for table: SourceTable, sample: [Point2]) throws(InputError) -> (CoordinateTransformer, String, Bool) {
        let (crs, assumed) = try sourceCRS(table, sample: sample)
        do {
            return (try CoordinateTransformer(from: crs, to: "EPSG:4326"), crs, assumed)
        } catch {
            throw InputError("\(table.role.rawValue): CRS of \(table.spec.description) is not usable: \(error.message)")
        }
    }

    /// Brings geometry from the source CRS to lon/lat on the workers.
    static func toLonLat(_ points: [Point2], table: SourceTable, pool: WorkerPool) throws(InputError) -> ([Point2], String, Bool) {
        let (_, crs, assumed) = try transformer(for: table, sample: Array(points.prefix(1000)))
        if CRSInfo.isWGS84(crs) { return (points, crs, assumed) }  // already lon/lat: keep the exact input values
        do {
            return (try ParallelProjection.points(points, pool: pool) { () throws(ProjectionError) in
                try CoordinateTransformer(from: crs, to: "EPSG:4326")
            }, crs, assumed)
        } catch {
            throw InputError("\(table.role.rawValue): \(error.message)")
        }
    }

    static func toLonLat(_ footprints: [Footprint], table: SourceTable, pool: WorkerPool) throws(InputError) -> ([Footprint], String, Bool) {
        let sample = footprints.prefix(1000).flatMap(\.points)
        let (_, crs, assumed) = try transformer(for: table, sample: sample)
        if CRSInfo.isWGS84(crs) { return (footprints, crs, assumed) }
        do {
            return (try ParallelProjection.footprints(footprints, pool: pool) { () throws(ProjectionError) in
                try CoordinateTransformer(from: crs, to: "EPSG:4326")
            }, crs, assumed)
        } catch {
            throw InputError("\(table.role.rawValue): \(error.message)")
        }
    }

    static func inRange(_ p: Point2) -> Bool {
        p.isFinite && abs(p.x) <= 180 && abs(p.y) <= 90
    }

    // MARK: addresses

    static func addresses(_ table: SourceTable, pool: WorkerPool) throws(InputError) -> Result<AddressPoint> {
        var rejects: [Reject] = []
        var located: [Int] = []          // record indices with a usable point
        var locations: [Point2] = []
        located.reserveCapacity(table.records.count)
        locations.reserveCapacity(table.records.count)
        let layer = "addresses"
        for (r, record) in table.records.enumerated() {
            let id = record.values[0]
            switch record.geometry {
            case nil:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: missingGeometryReason(record)))
            case .point(let p)?:
                located.append(r); locations.append(p)
            case .multiPoint(let pts)? where pts.count == 1:
                located.append(r); locations.append(pts[0])
            case .multiPoint(let pts)?:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "MultiPoint with \(pts.count) points; an address must be one point"))
            case .empty(let type)?:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "empty \(type)"))
            case .polygons?:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "geometry is a polygon; an address must be a point"))
            case .other(let type)?:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "geometry is a \(type); an address must be a point"))
            }
        }
        let (points, crs, assumed) = try toLonLat(locations, table: table, pool: pool)

        var items: [AddressPoint] = []
        items.reserveCapacity(points.count)
        var ids = IDRegistry(layer: layer)
        for (k, r) in located.enumerated() {
            let p = points[k]
            let record = table.records[r]
            guard inRange(p) else {
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: record.values[0],
                                      reason: "coordinates (\(locations[k].x), \(locations[k].y)) outside the valid range of its CRS"))
                continue
            }
            let id = ids.id(for: record, content: { Array(record.values.dropFirst()) }, at: { [p] })
            let values = record.values.dropFirst().map { v -> String? in
                guard let t = v.map(trimmed), !t.isEmpty else { return nil }
                return t
            }
            items.append(AddressPoint(id: id, values: Array(values), sourceRow: record.ordinal, location: p))
        }
        // Outputs follow ids, not the source's row order (which a spatially indexed FlatGeobuf or a
        // database query changes), so the same data gives the same bytes from any format.
        items = IDOrder.sortedUnique(items, id: \.id, row: \.sourceRow, layer: layer, rejects: &rejects)
        rejects.sort { $0.sourceRow < $1.sourceRow }
        return Result(items: items, rejects: rejects, crs: crs, crsAssumed: assumed, generatedIDs: ids.generated)
    }

    // MARK: buildings

    static func buildings(_ table: SourceTable, pool: WorkerPool) throws(InputError) -> Result<Building> {
        var rejects: [Reject] = []
        var shapes: [(record: Int, footprint: Footprint)] = []
        shapes.reserveCapacity(table.records.count)
        let layer = "buildings"
        for (r, record) in table.records.enumerated() {
            let id = record.values[0]
            switch record.geometry {
            case nil:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: missingGeometryReason(record)))
            case .polygons(let polys)?:
                let usable = polys.compactMap(closedPolygon)
                if usable.isEmpty {
                    rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "degenerate footprint (fewer than 3 distinct vertices)"))
                } else {
                    shapes.append((r, Footprint(polygons: usable)))
                }
            case .empty(let type)?:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "empty \(type)"))
            case .point?, .multiPoint?:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "geometry is a point; a building must be a Polygon or MultiPolygon"))
            case .other(let type)?:
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: id, reason: "geometry is a \(type); a building must be a Polygon or MultiPolygon"))
            }
        }
        let (lonLat, crs, assumed) = try toLonLat(shapes.map(\.footprint), table: table, pool: pool)

        var items: [Building] = []
        items.reserveCapacity(shapes.count)
        var ids = IDRegistry(layer: layer)
        for (k, entry) in shapes.enumerated() {
            let record = table.records[entry.record]
            let footprint = lonLat[k]
            guard footprint.points.allSatisfy(inRange) else {
                rejects.append(Reject(layer: layer, sourceRow: record.ordinal, id: record.values[0], reason: "coordinates outside the valid range of its CRS"))
                continue
            }
            let id = ids.id(for: record, content: { [] }, at: { footprint.polygons.flatMap(\.shell) })
            items.append(Building(id: id, height: record.values[1].flatMap(parseNumber),
                                  levels: record.values[2].flatMap(parseNumber).map { Int($0.rounded()) },
                                  sourceRow: record.ordinal, footprint: footprint))
        }
        items = IDOrder.sortedUnique(items, id: \.id, row: \.sourceRow, layer: layer, rejects: &rejects)
        rejects.sort { $0.sourceRow < $1.sourceRow }
        return Result(items: items, rejects: rejects, crs: crs, crsAssumed: assumed, generatedIDs: ids.generated)
    }

    /// Why a row without a usable geometry has none.
    static func missingGeometryReason(_ record: SourceTable.Record) -> String {
        record.geometryError.map { "unreadable geometry: \($0)" } ?? "no geometry"
    }

    /// Ids of accepted rows: the source's own (trimmed) or a content UUIDv5 when it has none.
    /// Duplicates are found afterwards, once the rows are in id order (IDOrder.sortedUnique).
    struct IDRegistry {
        let layer: String
        private var contentCounts: [String: Int] = [:]
        private(set) var generated = 0

        init(layer: String) { self.layer = layer }

        /// `content` and `points` are asked for only when the row has no id of its own.
        mutating func id(for record: SourceTable.Record, content: () -> [String?], at points: () -> [Point2]) -> String {
            let id = record.values[0].map(trimmed) ?? ""
            if !id.isEmpty { return id }
            generated += 1
            return contentID(role: layer, values: content(), at: points(), counts: &contentCounts)
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
    static func isClosedAndClean(_ ring: [Point2]) -> Bool {
        guard ring.count >= 4, ring[0] == ring[ring.count - 1], ring[0].isFinite else { return false }
        for k in 1..<ring.count where ring[k] == ring[k - 1] || !ring[k].isFinite { return false }
        return true
    }

    /// Without leading and trailing spaces and tabs; the string itself when it has none (the usual case).
    static func trimmed(_ s: String) -> String {
        let u = s.utf8
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
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
