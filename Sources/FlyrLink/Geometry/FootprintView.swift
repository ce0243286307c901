/// A footprint read in place: its points and ring ends where they are kept (a `Footprint`'s own
/// arrays, or a `FootprintStore`'s slabs). Valid only while the storage lives and is not changed;
/// the measures (box, area, cover, distance, validity) are written once, here.
struct FootprintView {
    let points: UnsafeBufferPointer<Point2>
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
    var bbox: BBox {
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
}
