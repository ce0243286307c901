/// RFC 7946 §3.1.6: exterior rings counterclockwise, holes clockwise. Footprints keep the
/// source's ring direction (and unit slices come out of the clipper clockwise); the writers walk
/// a ring backwards when its direction is the wrong one, so nothing is reordered in memory and
/// linking never sees a difference. One shoelace sum per ring, at write time.
enum RingOrientation {
    /// Whether ring `ring` (closed, lon/lat or metric) must be written in reverse: a shell that
    /// turns clockwise or a hole that turns counterclockwise. A ring of no area has no direction
    /// and is written as read.
    @inline(__always)
    static func needsReversal<C: RandomAccessCollection>(_ ring: C, isShell: Bool) -> Bool where C.Element == Point2 {
        let a = twiceSignedArea(ring)
        return isShell ? a < 0 : a > 0
    }

    /// Twice the ring's signed area (positive: counterclockwise), measured from its first point
    /// so that coordinates far from the origin (degrees of longitude, metres of a projected CRS)
    /// do not cancel each other's digits.
    static func twiceSignedArea<C: RandomAccessCollection>(_ ring: C) -> Double where C.Element == Point2 {
        guard ring.count >= 4, let o = ring.first else { return 0 }
        var s = 0.0
        var prev = Point2(x: 0, y: 0)
        for p in ring.dropFirst() {
            let q = Point2(x: p.x - o.x, y: p.y - o.y)
            s += prev.x * q.y - q.x * prev.y
            prev = q
        }
        return s
    }
}

/// A range walked forwards or backwards, without an array.
struct ReversibleRange: Sequence {
    let range: Range<Int>
    let reversed: Bool

    struct Iterator: IteratorProtocol {
        var current: Int
        let end: Int
        let step: Int

        mutating func next() -> Int? {
            guard current != end else { return nil }
            defer { current += step }
            return current
        }
    }

    func makeIterator() -> Iterator {
        reversed ? Iterator(current: range.upperBound - 1, end: range.lowerBound - 1, step: -1)
            : Iterator(current: range.lowerBound, end: range.upperBound, step: 1)
    }
}
