/// Decodes a FlatGeobuf Geometry table (feature.fbs) straight into `SourceGeometry`, giving what
/// GDAL's reader followed by `WKBReader` gives: Z and M dropped, a point of two NaNs empty.
/// Geometry GDAL cannot read (coordinates missing, ring ends out of order or past the coordinates,
/// Z or M values missing) makes GDAL stop reading the file: here it is a damaged file too. Curves,
/// and collections inside a GeometryCollection, which GDAL reads its own way, are left to GDAL.
struct FlatGeobufGeometry {
    let hasZ: Bool
    let hasM: Bool

    // Geometry table slots.
    private static let endsSlot = 0, xySlot = 1, zSlot = 2, mSlot = 3, typeSlot = 6, partsSlot = 7

    /// A geometry table's own type field (used when the header's type is Unknown).
    static func type(of g: FlatBufferTable) throws(FlatGeobufProblem) -> UInt8 {
        try g.uint8(typeSlot, default: 0, "geometry type")
    }

    func decode(_ g: FlatBufferTable, type: UInt8) throws(FlatGeobufProblem) -> SourceGeometry {
        switch type {
        case 1:
            return try point(g).map { .point($0) } ?? .empty("Point")
        case 2:
            _ = try coordinates(g, checkedFor: nil)
            return .other("LineString")
        case 3:
            var flat = FlatPolygons()
            try appendPolygon(g, to: &flat)
            return .polygons(flat.footprint)
        case 4:
            let points = try multiPoint(g)
            return points.isEmpty ? .empty("MultiPoint") : .multiPoint(points)
        case 5:
            try lineParts(g)
            return .other("MultiLineString")
        case 6:
            var flat = FlatPolygons()
            for part in try parts(g) { try appendPolygon(part, to: &flat) }
            return flat.polygons == 0 ? .empty("MultiPolygon") : .polygons(flat.footprint)
        case 7:
            return try collection(g)
        default:
            if (8...17).contains(type) { throw .needsGDAL("geometry type \(type)") }
            throw .corrupt("geometry type \(type)")
        }
    }

    /// The xy array and how many points it holds, with the Z/M arrays GDAL insists on checked.
    private func coordinates(_ g: FlatBufferTable, checkedFor needed: Int?) throws(FlatGeobufProblem) -> (xy: FlatBufferVector, points: Int) {
        guard let xy = try g.vector(Self.xySlot, elementSize: 8, "geometry xy") else { throw .corrupt("a geometry without coordinates") }
        let points = xy.count / 2
        if hasZ { try requireOrdinates(g, Self.zSlot, atLeast: needed ?? points) }
        if hasM { try requireOrdinates(g, Self.mSlot, atLeast: needed ?? points) }
        return (xy, points)
    }

    private func requireOrdinates(_ g: FlatBufferTable, _ slot: Int, atLeast n: Int) throws(FlatGeobufProblem) {
        guard let v = try g.vector(slot, elementSize: 8, "geometry z/m"), v.count >= n else {
            throw .corrupt("Z or M values missing for some coordinates")
        }
    }

    @inline(__always)
    private func pointAt(_ xy: FlatBufferVector, _ i: Int) -> Point2 {
        Point2(x: xy.double(2 * i), y: xy.double(2 * i + 1))
    }

    /// nil for the empty point (both coordinates NaN), as WKB has it.
    private func point(_ g: FlatBufferTable) throws(FlatGeobufProblem) -> Point2? {
        let (xy, points) = try coordinates(g, checkedFor: 1)
        guard points >= 1 else { throw .corrupt("a point without both coordinates") }
        let p = pointAt(xy, 0)
        return p.x.isNaN && p.y.isNaN ? nil : p
    }

    private func multiPoint(_ g: FlatBufferTable) throws(FlatGeobufProblem) -> [Point2] {
        let (xy, n) = try coordinates(g, checkedFor: nil)
        var points: [Point2] = []
        points.reserveCapacity(n)
        for i in 0..<n {
            let p = pointAt(xy, i)
            if !(p.x.isNaN && p.y.isNaN) { points.append(p) }
        }
        return points
    }

    /// The `ends` array when it splits the coordinates into parts; without it (or with a single
    /// end) all coordinates form one part.
    private func partEnds(_ g: FlatBufferTable) throws(FlatGeobufProblem) -> FlatBufferVector? {
        guard let ends = try g.vector(Self.endsSlot, elementSize: 4, "geometry ends"), ends.count >= 2 else { return nil }
        return ends
    }

    /// Checks each part's end follows the previous one within the coordinates.
    private func validEnd(_ ends: FlatBufferVector, _ i: Int, after start: Int, points: Int) throws(FlatGeobufProblem) -> Int {
        let end = Int(ends.uint32(i))
        guard end >= start, end <= points else { throw .corrupt("ring or line ends out of order or past the coordinates") }
        return end
    }

    private func lineParts(_ g: FlatBufferTable) throws(FlatGeobufProblem) {
        let (_, points) = try coordinates(g, checkedFor: nil)
        guard let ends = try partEnds(g) else { return }
        var start = 0
        for i in 0..<ends.count { start = try validEnd(ends, i, after: start, points: points) }
    }

    /// Polygons gathered flat, as `Footprint` stores them (no array per ring). While there is one
    /// ring in one polygon (the usual footprint) the ends stay unwritten, as `Footprint` keeps
    /// them: two small arrays allocated and freed per building otherwise.
    struct FlatPolygons {
        var points: [Point2] = []
        private var ringEnds: [Int32] = []
        private var polygonEnds: [Int32] = []
        private var rings = 0
        private(set) var polygons = 0
        private var firstRingEnd: Int32 = 0, firstPolygonEnd: Int32 = 0

        mutating func endRing(at end: Int) {
            rings += 1
            if rings == 1 { firstRingEnd = Int32(end); return }
            if rings == 2 { ringEnds.append(firstRingEnd) }
            ringEnds.append(Int32(end))
        }

        mutating func endPolygon() {
            polygons += 1
            if polygons == 1 { firstPolygonEnd = Int32(rings); return }
            if polygons == 2 { polygonEnds.append(firstPolygonEnd) }
            polygonEnds.append(Int32(rings))
        }

        var footprint: Footprint {
            // One ring of no points stays a ring (as `Footprint(points:ringEnds:polygonEnds:)` keeps it).
            Footprint(points: points, ringEnds: rings == 1 && points.isEmpty ? [0] : ringEnds, polygonEnds: polygonEnds)
        }
    }

    /// The polygon's rings (all its coordinates as one ring when it has no ends) added to `flat`.
    private func appendPolygon(_ g: FlatBufferTable, to flat: inout FlatPolygons) throws(FlatGeobufProblem) {
        let (xy, points) = try coordinates(g, checkedFor: nil)
        let ends = try partEnds(g)
        var used = points  // coordinates past the last ring end belong to no ring
        if let ends {
            var start = 0
            for i in 0..<ends.count { start = try validEnd(ends, i, after: start, points: points) }
            if start == 0 { throw .corrupt("a polygon whose rings are all empty") }
            used = start
        }
        let base = flat.points.count
        // (reserveCapacity and append: see `FlatGeobufFeatureDecoder.values`.)
        flat.points.reserveCapacity(base + used)
        for i in 0..<used { flat.points.append(pointAt(xy, i)) }
        if let ends {
            for i in 0..<ends.count { flat.endRing(at: base + Int(ends.uint32(i))) }
        } else {
            flat.endRing(at: base + used)
        }
        flat.endPolygon()
    }

    private func parts(_ g: FlatBufferTable) throws(FlatGeobufProblem) -> [FlatBufferTable] {
        guard let list = try g.vector(Self.partsSlot, elementSize: 4, "geometry parts") else { throw .corrupt("a collection without parts") }
        var parts: [FlatBufferTable] = []
        parts.reserveCapacity(list.count)
        for i in 0..<list.count { parts.append(try g.table(in: list, i, "geometry part")) }
        return parts
    }

    /// A GeometryCollection, flattened as `WKBReader` does: only points → MultiPoint, only
    /// polygons → polygons, anything with lines or mixed → other.
    private func collection(_ g: FlatBufferTable) throws(FlatGeobufProblem) -> SourceGeometry {
        let name = "GeometryCollection"
        var points: [Point2] = []
        var polygons = FlatPolygons()
        var others = false
        for part in try parts(g) {
            switch try Self.type(of: part) {
            case 1: if let p = try point(part) { points.append(p) }
            case 3: try appendPolygon(part, to: &polygons)
            case 2: _ = try coordinates(part, checkedFor: nil); others = true
            case 0: throw .corrupt("a collection part without a geometry type")
            default: throw .needsGDAL("a collection or curve inside a GeometryCollection")
            }
        }
        if others { return .other(name) }
        let hasPolygons = polygons.polygons > 0
        if hasPolygons && points.isEmpty { return .polygons(polygons.footprint) }
        if !points.isEmpty && !hasPolygons { return .multiPoint(points) }
        if points.isEmpty && !hasPolygons { return .empty(name) }
        return .other(name)
    }
}
