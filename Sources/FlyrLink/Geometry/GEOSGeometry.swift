internal import CGEOS

/// A GEOS geometry owned by one context (and so by one thread). Destroyed with its owner's context.
final class GEOSGeometry {
    let context: GEOSContext
    let handle: OpaquePointer

    init(context: GEOSContext, handle: OpaquePointer) {
        self.context = context
        self.handle = handle
    }

    deinit {
        GEOSGeom_destroy_r(context.handle, handle)
    }

}

extension GEOSContext {
    func point(_ p: Point2) throws(GEOSError) -> GEOSGeometry {
        resetError()
        guard let g = GEOSGeom_createPointFromXY_r(handle, p.x, p.y) else { throw error("createPoint") }
        return GEOSGeometry(context: self, handle: g)
    }

    private func ring(_ pts: ArraySlice<Point2>) throws(GEOSError) -> OpaquePointer {
        resetError()
        let seq: OpaquePointer? = pts.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: Double.self) { dbl in
                GEOSCoordSeq_copyFromBuffer_r(handle, dbl.baseAddress, UInt32(pts.count), 0, 0)
            }
        }
        guard let seq else { throw error("copyFromBuffer") }
        guard let r = GEOSGeom_createLinearRing_r(handle, seq) else { throw error("createLinearRing") }
        return r
    }

    private func polygonHandle(_ f: Footprint, _ polygon: Int) throws(GEOSError) -> OpaquePointer {
        let rings = f.ringsOfPolygon(polygon)
        let shell = try ring(rings.isEmpty ? [] : f.points[f.ringRange(rings.lowerBound)])
        var holes: [OpaquePointer?] = []
        do {
            for r in rings.dropFirst() { holes.append(try ring(f.points[f.ringRange(r)])) }
        } catch {
            GEOSGeom_destroy_r(handle, shell)
            for h in holes { GEOSGeom_destroy_r(handle, h) }
            throw error
        }
        resetError()
        let g = holes.withUnsafeMutableBufferPointer { buf in
            GEOSGeom_createPolygon_r(handle, shell, buf.baseAddress, UInt32(buf.count))
        }
        guard let g else { throw error("createPolygon") }
        return g
    }

    /// A Polygon for one part, a MultiPolygon for several.
    func geometry(_ footprint: Footprint) throws(GEOSError) -> GEOSGeometry {
        if footprint.polygonCount == 1 {
            return GEOSGeometry(context: self, handle: try polygonHandle(footprint, 0))
        }
        var parts: [OpaquePointer?] = []
        do {
            for poly in 0..<footprint.polygonCount { parts.append(try polygonHandle(footprint, poly)) }
        } catch {
            for p in parts { GEOSGeom_destroy_r(handle, p) }
            throw error
        }
        resetError()
        let g = parts.withUnsafeMutableBufferPointer { buf in
            GEOSGeom_createCollection_r(handle, Int32(GEOS_MULTIPOLYGON.rawValue), buf.baseAddress, UInt32(buf.count))
        }
        guard let g else { throw error("createCollection") }
        return GEOSGeometry(context: self, handle: g)
    }

    /// The polygonal parts of any GEOS geometry as a Footprint (lines and points that MakeValid
    /// or an intersection can leave behind are dropped: they have no area).
    func footprint(_ g: GEOSGeometry) -> Footprint {
        var polys: [Polygon] = []
        collectPolygons(g.handle, into: &polys)
        return Footprint(polygons: polys)
    }

    private func collectPolygons(_ g: OpaquePointer, into polys: inout [Polygon]) {
        let type = GEOSGeomTypeId_r(handle, g)
        if type == Int32(GEOS_POLYGON.rawValue) {
            if GEOSisEmpty_r(handle, g) == 1 { return }
            var rings: [[Point2]] = []
            if let ext = GEOSGetExteriorRing_r(handle, g) { rings.append(coordinates(ext)) }
            let n = GEOSGetNumInteriorRings_r(handle, g)
            if n > 0 {
                for i in 0..<n {
                    if let r = GEOSGetInteriorRingN_r(handle, g, i) { rings.append(coordinates(r)) }
                }
            }
            polys.append(Polygon(rings: rings))
        } else if type == Int32(GEOS_MULTIPOLYGON.rawValue) || type == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) {
            let n = GEOSGetNumGeometries_r(handle, g)
            guard n > 0 else { return }
            for i in 0..<n {
                if let part = GEOSGetGeometryN_r(handle, g, i) { collectPolygons(part, into: &polys) }
            }
        }
    }

    private func coordinates(_ ring: OpaquePointer) -> [Point2] {
        guard let seq = GEOSGeom_getCoordSeq_r(handle, ring) else { return [] }
        var size: UInt32 = 0
        GEOSCoordSeq_getSize_r(handle, seq, &size)
        var pts = [Point2](repeating: Point2(x: 0, y: 0), count: Int(size))
        pts.withUnsafeMutableBufferPointer { buf in
            buf.withMemoryRebound(to: Double.self) { dbl in
                _ = GEOSCoordSeq_copyToBuffer_r(handle, seq, dbl.baseAddress, 0, 0)
            }
        }
        return pts
    }

    func isValid(_ g: GEOSGeometry) -> Bool {
        GEOSisValid_r(handle, g.handle) == 1
    }

    /// Why GEOS finds the geometry invalid, e.g. "Self-intersection[x y]".
    func invalidReason(_ g: GEOSGeometry) -> String {
        guard let c = GEOSisValidReason_r(handle, g.handle) else { return "invalid" }
        defer { GEOSFree_r(handle, c) }
        return String(cString: c)
    }

    func makeValid(_ g: GEOSGeometry) throws(GEOSError) -> GEOSGeometry {
        resetError()
        guard let v = GEOSMakeValid_r(handle, g.handle) else { throw error("MakeValid") }
        return GEOSGeometry(context: self, handle: v)
    }

    func area(_ g: GEOSGeometry) -> Double {
        var a = 0.0
        GEOSArea_r(handle, g.handle, &a)
        return a
    }

    func intersection(_ a: GEOSGeometry, _ b: GEOSGeometry) throws(GEOSError) -> GEOSGeometry {
        resetError()
        guard let g = GEOSIntersection_r(handle, a.handle, b.handle) else { throw error("Intersection") }
        return GEOSGeometry(context: self, handle: g)
    }

    /// The oriented minimum-area rectangle enclosing `g` (GEOS 3.11's MinimumRotatedRectangle).
    func minimumRotatedRectangle(_ g: GEOSGeometry) throws(GEOSError) -> GEOSGeometry {
        resetError()
        guard let r = GEOSMinimumRotatedRectangle_r(handle, g.handle) else { throw error("MinimumRotatedRectangle") }
        return GEOSGeometry(context: self, handle: r)
    }
}

extension GEOSContext {
    /// The union of several geometries (GEOS takes ownership of copies, the inputs stay valid).
    func unaryUnion(_ parts: [GEOSGeometry]) throws(GEOSError) -> GEOSGeometry {
        resetError()
        var clones: [OpaquePointer?] = parts.map { GEOSGeom_clone_r(handle, $0.handle) }
        let collection = clones.withUnsafeMutableBufferPointer { buf in
            GEOSGeom_createCollection_r(handle, Int32(GEOS_GEOMETRYCOLLECTION.rawValue), buf.baseAddress, UInt32(buf.count))
        }
        guard let collection else { throw error("createCollection") }
        defer { GEOSGeom_destroy_r(handle, collection) }
        guard let u = GEOSUnaryUnion_r(handle, collection) else { throw error("UnaryUnion") }
        return GEOSGeometry(context: self, handle: u)
    }
}

extension GEOSContext {
    /// The part of `g` inside an axis-aligned rectangle (GEOS's fast rectangle clipping).
    func clip(_ g: GEOSGeometry, to box: BBox) throws(GEOSError) -> GEOSGeometry {
        resetError()
        guard let r = GEOSClipByRect_r(handle, g.handle, box.minX, box.minY, box.maxX, box.maxY) else { throw error("ClipByRect") }
        return GEOSGeometry(context: self, handle: r)
    }
}
