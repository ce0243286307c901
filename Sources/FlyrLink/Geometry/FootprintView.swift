/// A footprint read in place: its points and ring ends where they are kept (a `Footprint`'s own
/// arrays, or a `FootprintStore`'s slabs). Valid only while the storage lives and is not changed;
/// the measures (box, area, cover, distance, validity) are written once, here.
package struct FootprintView {
    package let points: UnsafeBufferPointer<Point2>
    let layout: RingLayout<UnsafeBufferPointer<Int32>>

    @inline(__always)
    init(points: UnsafeBufferPointer<Point2>, ends: UnsafeBufferPointer<Int32>) {
        self.points = points
        layout = RingLayout(ends: ends, pointCount: points.count)
    }

    var ringCount: Int { layout.ringCount }
    var polygonCount: Int { layout.polygonCount }
    @inline(__always) func ringRange(_ r: Int) -> Range<Int> { layout.ringRange(r) }
    @inline(__always) func ringsOfPolygon(_ p: Int) -> Range<Int> { layout.ringsOfPolygon(p) }

    /// Ring `r`'s points.
    @inline(__always) func ring(_ r: Int) -> UnsafeBufferPointer<Point2> { UnsafeBufferPointer(rebasing: points[ringRange(r)]) }

    /// A footprint of its own (a copy), for code that reshapes it or hands it to GEOS.
    var footprint: Footprint { Footprint(points: Array(points), layoutEnds: Array(layout.ends)) }

    /// The box of the shells (holes lie inside them).
    package var bbox: BBox {
        var b = BBox.empty
        if layout.isSingleRing {
            for p in points { b.extend(p) }
            return b
        }
        for poly in 0..<polygonCount {
            guard let shell = ringsOfPolygon(poly).first else { continue }
            for p in ring(shell) { b.extend(p) }
        }
        return b
    }

    /// Planar area (shoelace), holes subtracted. Meaningful in a metric frame.
    var area: Double {
        var total = 0.0
        for poly in 0..<polygonCount {
            let rings = ringsOfPolygon(poly)
            for r in rings {
                let a = abs(Footprint.signedArea(ring(r)))
                total += r == rings.lowerBound ? a : -a
            }
        }
        return total
    }

    /// The centroid of the area (holes subtracted), each ring's sums taken from its first point
    /// (coordinates of a national frame would lose centimetres to the products otherwise); a
    /// footprint of no area gives the centre of its box.
    var centroid: Point2 {
        var twiceArea = 0.0, sx = 0.0, sy = 0.0
        for poly in 0..<polygonCount {
            let rings = ringsOfPolygon(poly)
            for r in rings {
                let ring = ring(r)
                guard let o = ring.first else { continue }
                var a = 0.0, cx = 0.0, cy = 0.0
                for k in 0..<ring.count {
                    let p = ring[k], q = ring[(k + 1) % ring.count]
                    let x1 = p.x - o.x, y1 = p.y - o.y, x2 = q.x - o.x, y2 = q.y - o.y
                    let c = x1 * y2 - x2 * y1
                    a += c
                    cx += (x1 + x2) * c
                    cy += (y1 + y2) * c
                }
                // A hole counts against its shell whichever way either is wound.
                let sign: Double = (r == rings.lowerBound) == (a >= 0) ? 1 : -1
                twiceArea += sign * a
                sx += sign * (cx + 3 * o.x * a)
                sy += sign * (cy + 3 * o.y * a)
            }
        }
        guard twiceArea != 0 else {
            let b = bbox
            return Point2(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)
        }
        return Point2(x: sx / (3 * twiceArea), y: sy / (3 * twiceArea))
    }
}
