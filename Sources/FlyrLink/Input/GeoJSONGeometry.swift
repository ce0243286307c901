/// GeoJSON geometry objects decoded into `SourceGeometry` (members in any order, Z dropped).
enum GeoJSONGeometry {
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// Nested coordinate arrays as written: a position, or a list of them (or of lists).
    indirect enum Coordinates {
        case position(Point2)
        case list([Coordinates])
    }

    /// Deepest GeometryCollection nesting read (a bound on the recursion, not a GeoJSON limit).
    static let maxCollectionDepth = 8

    static func read(_ s: inout GeoJSONScanner, depth: Int = 0) throws -> SourceGeometry? {
        guard depth <= maxCollectionDepth else { throw s.fail("geometry collections nested too deeply") }
        if try s.peek() == UInt8(ascii: "n") { try s.literal("null"); return nil }
        var type: String?
        var coordinates: Coordinates?
        var flat: FlatCoordinates?
        var parts: [SourceGeometry?] = []
        guard try s.open(UInt8(ascii: "{"), UInt8(ascii: "}")) else { throw Invalid(description: "geometry object without a type") }
        repeat {
            let key = try s.string()
            try s.expect(UInt8(ascii: ":"))
            switch key {
            case "type": type = try s.scalarText()
            case "coordinates":
                // The regular case (every array at one depth, none empty) in flat arrays; anything
                // else is read again the general way.
                let mark = s.i
                if let f = try FlatCoordinates.read(&s) {
                    flat = f
                } else {
                    s.i = mark
                    coordinates = try readCoordinates(&s, depth: 0)
                }
            case "geometries":
                guard try s.open(UInt8(ascii: "["), UInt8(ascii: "]")) else { break }
                repeat { parts.append(try read(&s, depth: depth + 1)) } while try s.more(closer: UInt8(ascii: "]"))
            default: try s.skipValue()
            }
        } while try s.more(closer: UInt8(ascii: "}"))
        guard let type else { throw Invalid(description: "geometry object without a type") }
        if let flat {
            if let g = flat.geometry(type) { return g }
            coordinates = flat.nested
        }
        return try make(type, coordinates, parts)
    }

    static func readCoordinates(_ s: inout GeoJSONScanner, depth: Int) throws(GeoJSONScanner.Failure) -> Coordinates {
        guard depth < 6 else { throw s.fail("coordinates nested too deeply") }
        guard try s.open(UInt8(ascii: "["), UInt8(ascii: "]")) else { return .list([]) }
        if try s.peek() == UInt8(ascii: "[") {
            var items: [Coordinates] = []
            repeat { items.append(try readCoordinates(&s, depth: depth + 1)) } while try s.more(closer: UInt8(ascii: "]"))
            return .list(items)
        }
        let x = try s.number()
        guard try s.more(closer: UInt8(ascii: "]")) else { throw s.fail("a position needs at least two numbers") }
        let y = try s.number()
        while try s.more(closer: UInt8(ascii: "]")) { _ = try s.number() }  // Z, M
        return .position(Point2(x: x, y: y))
    }

    static func make(_ type: String, _ c: Coordinates?, _ parts: [SourceGeometry?]) throws -> SourceGeometry {
        func list(_ c: Coordinates?) throws -> [Coordinates] {
            switch c {
            case .list(let items)?: return items
            case nil: return []
            case .position?: throw Invalid(description: "\(type) coordinates must be an array of arrays")
            }
        }
        func position(_ c: Coordinates) throws -> Point2 {
            guard case .position(let p) = c else { throw Invalid(description: "\(type): expected a position") }
            return p
        }
        func polygon(_ c: Coordinates) throws -> Polygon? {
            let rings = try list(c).map { try list($0).map(position) }
            return rings.isEmpty ? nil : Polygon(rings: rings)
        }
        switch type {
        case "Point":
            if case .position(let p)? = c { return .point(p) }
            return .empty("Point")
        case "MultiPoint":
            let pts = try list(c).map(position)
            return pts.isEmpty ? .empty("MultiPoint") : .multiPoint(pts)
        case "Polygon":
            return try polygon(c ?? .list([])).map { .polygons(Footprint(polygons: [$0])) } ?? .empty("Polygon")
        case "MultiPolygon":
            let polys = try list(c).compactMap(polygon)
            return polys.isEmpty ? .empty("MultiPolygon") : .polygons(Footprint(polygons: polys))
        case "LineString", "MultiLineString":
            return .other(type)
        case "GeometryCollection":
            var points: [Point2] = [], polygons: [Polygon] = [], others = false
            for part in parts {
                switch part {
                case .point(let p)?: points.append(p)
                case .multiPoint(let ps)?: points += ps
                case .polygons(let f)?: polygons += f.polygons
                case .empty?, nil: break
                default: others = true
                }
            }
            if others || (!points.isEmpty && !polygons.isEmpty) { return .other(type) }
            if !polygons.isEmpty { return .polygons(Footprint(polygons: polygons)) }
            if !points.isEmpty { return .multiPoint(points) }
            return .empty(type)
        default:
            throw Invalid(description: "unknown geometry type \(type)")
        }
    }

    /// Coordinates read into one points array with, per nesting level, where each array ends:
    /// no allocation per position (the nested form boxes every one), none at all for a lone
    /// position, and the ring and polygon ends already in `Footprint`'s form.
    struct FlatCoordinates {
        var points: [Point2] = []
        /// A position on its own (depth 0) is kept here, not in `points`.
        var lone = Point2(x: 0, y: 0)
        /// For each array at level 1 (positions), 2 (rings of a polygon) and 3 (polygons): the end
        /// of its children in the level below (points for level 1).
        var ends1: [Int32] = [], ends2: [Int32] = [], ends3: [Int32] = []
        /// The level of the outermost array (0: a single position).
        var depth = 0

        /// Nil when the coordinates are not regular: an empty array, mixed depths, deeper than 3.
        static func read(_ s: inout GeoJSONScanner) throws(GeoJSONScanner.Failure) -> FlatCoordinates? {
            var f = FlatCoordinates()
            guard let level = try f.readArray(&s, depth: 0) else { return nil }
            f.depth = level
            return f
        }

        /// `depth`: how many arrays enclose this one. Checked before anything is read: deeper than
        /// a MultiPolygon's positions is not regular (the general path then reports it), and the
        /// recursion stays bounded whatever the file holds.
        private mutating func readArray(_ s: inout GeoJSONScanner, depth: Int) throws(GeoJSONScanner.Failure) -> Int? {
            guard depth <= 3 else { return nil }
            let outermost = depth == 0
            guard try s.open(UInt8(ascii: "["), UInt8(ascii: "]")) else { return nil }
            if try s.peek() != UInt8(ascii: "[") {
                let x = try s.number()
                guard try s.more(closer: UInt8(ascii: "]")) else { throw s.fail("a position needs at least two numbers") }
                let y = try s.number()
                while try s.more(closer: UInt8(ascii: "]")) { _ = try s.number() }  // Z, M
                if outermost { lone = Point2(x: x, y: y) } else { points.append(Point2(x: x, y: y)) }
                return 0
            }
            var childLevel: Int?
            repeat {
                guard let l = try readArray(&s, depth: depth + 1), childLevel == nil || childLevel == l, l < 3 else { return nil }
                childLevel = l
            } while try s.more(closer: UInt8(ascii: "]"))
            let level = childLevel! + 1
            switch level {
            case 1: ends1.append(Int32(points.count))
            case 2: ends2.append(Int32(ends1.count))
            default: ends3.append(Int32(ends2.count))
            }
            return level
        }

        private func ends(_ level: Int) -> [Int32] {
            switch level {
            case 1: return ends1
            case 2: return ends2
            default: return ends3
            }
        }

        /// The geometry when the type's expected depth matches; nil otherwise (the general path
        /// then gives the same result or error as before).
        func geometry(_ type: String) -> SourceGeometry? {
            switch (type, depth) {
            case ("Point", 0): return .point(lone)
            case ("MultiPoint", 1): return .multiPoint(points)
            case ("Polygon", 2), ("MultiPolygon", 3):
                // A Polygon's one polygon ends its rings (ends2 holds that single end).
                return .polygons(Footprint(points: points, ringEnds: ends1, polygonEnds: ends2))
            default: return nil
            }
        }

        /// The nested form, for the general path.
        var nested: Coordinates {
            func level(_ l: Int, _ i: Int) -> Coordinates {
                if l == 0 { return .position(points[i]) }
                let e = ends(l)
                let start = i == 0 ? 0 : Int(e[i - 1])
                return .list((start..<Int(e[i])).map { level(l - 1, $0) })
            }
            return depth == 0 ? .position(lone) : level(depth, 0)
        }
    }
}
