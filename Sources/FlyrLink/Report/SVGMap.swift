/// An inline SVG drawing of a window of the run's metric frame, true to scale: one scale for both
/// axes (pixels per metre), north up (the frame's y grows northwards, the page's downwards).
/// Numbers are written with one decimal of a pixel, so the same shapes give the same bytes.
struct SVGMap {
    /// The window drawn, in metres.
    let window: BBox
    let width: Double
    let height: Double
    /// Pixels per metre.
    let scale: Double
    private(set) var body = ""
    /// Pixels below the map (the scale bar's band), so the bar covers nothing drawn.
    private(set) var band = 0.0

    /// The window scaled to fit a square of `side` pixels (its longer side fills it).
    init(window: BBox, fitting side: Double) {
        let w = max(window.maxX - window.minX, 1e-9), h = max(window.maxY - window.minY, 1e-9)
        self.window = window
        scale = side / max(w, h)
        width = (w * scale).rounded()
        height = (h * scale).rounded()
    }

    func px(_ p: Point2) -> (x: Double, y: Double) {
        ((p.x - window.minX) * scale, (window.maxY - p.y) * scale)
    }

    static func n(_ v: Double) -> String { OutputNumber.fixed(v, 1) }

    /// A footprint (in metres) as one path, holes by the even-odd rule.
    mutating func footprint(_ f: Footprint, fill: String, stroke: String, strokeWidth: Double = 1, dash: String? = nil) {
        var d = ""
        for polygon in f.polygons {
            for (r, ring) in polygon.rings.enumerated() where ring.count >= 3 {
                // In the files' direction (RFC 7946), so a page redrawn from them is the same.
                let points = RingOrientation.needsReversal(ring, isShell: r == 0) ? Array(ring.reversed()) : ring
                for (k, p) in points.enumerated() {
                    let q = px(p)
                    d += (k == 0 ? "M" : "L") + Self.n(q.x) + " " + Self.n(q.y)
                }
                d += "Z"
            }
        }
        guard !d.isEmpty else { return }
        body += "<path d=\"\(d)\" fill=\"\(fill)\" fill-rule=\"evenodd\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\""
        if let dash { body += " stroke-dasharray=\"\(dash)\"" }
        body += "/>\n"
    }

    mutating func line(_ a: Point2, _ b: Point2, color: String, width: Double = 2, dash: String? = nil) {
        let p = px(a), q = px(b)
        body += "<line x1=\"\(Self.n(p.x))\" y1=\"\(Self.n(p.y))\" x2=\"\(Self.n(q.x))\" y2=\"\(Self.n(q.y))\" stroke=\"\(color)\" stroke-width=\"\(Self.n(width))\""
        if let dash { body += " stroke-dasharray=\"\(dash)\"" }
        body += "/>\n"
    }

    mutating func circle(_ c: Point2, radius: Double, fill: String, stroke: String = "none", strokeWidth: Double = 1, title: String? = nil) {
        let p = px(c)
        body += "<circle cx=\"\(Self.n(p.x))\" cy=\"\(Self.n(p.y))\" r=\"\(Self.n(radius))\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\""
        if let title { body += "><title>\(HTMLText.escape(title))</title></circle>\n" } else { body += "/>\n" }
    }

    /// A cross (an unlinked address), `size` pixels across.
    mutating func cross(_ c: Point2, size: Double, color: String, title: String? = nil) {
        let p = px(c), h = size / 2
        body += "<path d=\"M\(Self.n(p.x - h)) \(Self.n(p.y - h))L\(Self.n(p.x + h)) \(Self.n(p.y + h))M\(Self.n(p.x - h)) \(Self.n(p.y + h))L\(Self.n(p.x + h)) \(Self.n(p.y - h))\" stroke=\"\(color)\" stroke-width=\"2.5\">"
        body += title.map { "<title>\(HTMLText.escape($0))</title>" } ?? ""
        body += "</path>\n"
    }

    /// Text at a ground point, offset by (dx, dy) pixels.
    mutating func label(_ text: String, at c: Point2, dx: Double = 0, dy: Double = 0, size: Double = 10,
                        color: String = "#222", anchor: String = "start", weight: String? = nil) {
        let p = px(c)
        // A white halo under the glyphs keeps them readable over outlines and lines.
        body += "<text x=\"\(Self.n(p.x + dx))\" y=\"\(Self.n(p.y + dy))\" font-size=\"\(Self.n(size))\" fill=\"\(color)\" text-anchor=\"\(anchor)\" stroke=\"#fff\" stroke-width=\"2.5\" paint-order=\"stroke\""
        if let weight { body += " font-weight=\"\(weight)\"" }
        body += ">\(HTMLText.escape(text))</text>\n"
    }

    /// A rectangle in pixels (overview cells: aligned to the pixel grid, not to ground points).
    mutating func pixelRect(x: Double, y: Double, width w: Double, height h: Double, fill: String, title: String? = nil) {
        body += "<rect x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(w))\" height=\"\(Self.n(h))\" fill=\"\(fill)\""
        if let title { body += "><title>\(HTMLText.escape(title))</title></rect>\n" } else { body += "/>\n" }
    }

    /// A rectangle on the ground (metres), outlined.
    mutating func groundRect(_ b: BBox, stroke: String, strokeWidth: Double = 1, dash: String? = nil) {
        let p = px(Point2(x: b.minX, y: b.maxY)), q = px(Point2(x: b.maxX, y: b.minY))
        body += "<rect x=\"\(Self.n(p.x))\" y=\"\(Self.n(p.y))\" width=\"\(Self.n(q.x - p.x))\" height=\"\(Self.n(q.y - p.y))\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\""
        if let dash { body += " stroke-dasharray=\"\(dash)\"" }
        body += "/>\n"
    }

    /// A scale bar of a round length (1, 2 or 5 × 10^k m) about a fifth of the width, bottom left.
    mutating func scaleBar() {
        let target = (width / 5) / scale
        let metres = Self.roundLength(target)
        let length = metres * scale
        band = 22
        let y = height + 16
        body += "<path d=\"M10 \(Self.n(y - 4))V\(Self.n(y))H\(Self.n(10 + length))V\(Self.n(y - 4))\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.5\"/>\n"
        body += "<text x=\"\(Self.n(14 + length))\" y=\"\(Self.n(y))\" font-size=\"10\" fill=\"#000\">\(Self.lengthText(metres))</text>\n"
    }

    /// The largest 1, 2 or 5 × 10^k not above `v` (v > 0).
    static func roundLength(_ v: Double) -> Double {
        guard v.isFinite, v > 0 else { return 1 }
        var p = 1.0
        while p * 10 <= v { p *= 10 }
        while p > v { p /= 10 }
        if 5 * p <= v { return 5 * p }
        if 2 * p <= v { return 2 * p }
        return p
    }

    static func lengthText(_ metres: Double) -> String {
        metres >= 1000 ? OutputNumber.fixed(metres / 1000, 3) + " km" : OutputNumber.fixed(metres, 2) + " m"
    }

    /// The finished element; `label` is its accessible name.
    func svg(label: String, className: String) -> String {
        "<svg class=\"\(className)\" width=\"\(Self.n(width))\" height=\"\(Self.n(height + band))\" viewBox=\"0 0 \(Self.n(width)) \(Self.n(height + band))\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\">\n"
            + "<rect width=\"\(Self.n(width))\" height=\"\(Self.n(height))\" fill=\"#fbfbf8\"/>\n" + body + "</svg>\n"
    }
}

/// Text made safe for HTML and SVG content and attribute values.
enum HTMLText {
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
