/// The overview: the grid's cells coloured by their share of doubtful addresses (grey where there
/// are buildings but no address), the buildings' extent, and the worst spots numbered.
enum OverviewMap {
    static let side = 720.0

    static func draw(_ grid: OverviewGrid, extent: [Point2], spots: [ReportModel.SpotScene]) -> String {
        var map = SVGMap(window: grid.bounds, fitting: side)
        let side = grid.cell * map.scale
        for i in 0..<(grid.columns * grid.rows) where grid.addresses[i] > 0 || grid.buildings[i] > 0 {
            let box = grid.box(i)
            let corner = map.px(Point2(x: box.minX, y: box.maxY))
            let n = Int(grid.addresses[i]), d = Int(grid.doubtful[i])
            let fill = n == 0 ? ColorScale.buildingsOnly : ColorScale.share(Double(d) / Double(n))
            let title = n == 0 ? "\(grid.buildings[i]) buildings, no address"
                : "\(n) addresses, \(d) doubtful (\(percent(d, n))), \(grid.buildings[i]) buildings"
            map.pixelRect(x: corner.x, y: corner.y, width: side, height: side, fill: fill, title: title)
        }
        if extent.count > 2 {
            map.footprint(Footprint(polygons: [Polygon(rings: [extent + [extent[0]]])]), fill: "none", stroke: "#333", strokeWidth: 1, dash: "4 3")
        }
        for (k, s) in spots.enumerated() {
            map.circle(s.spot.centre, radius: 9, fill: "#ffffff", stroke: "#000", strokeWidth: 1.5,
                       title: "spot \(k + 1): \(s.spot.unlinked) unlinked, \(s.spot.unsure) unsure of \(s.spot.addresses)")
            map.label(String(k + 1), at: s.spot.centre, dy: 3.5, size: 10, color: "#000", anchor: "middle", weight: "bold")
        }
        map.scaleBar()
        return map.svg(label: "overview: share of doubtful addresses per \(SVGMap.lengthText(grid.cell)) cell", className: "overview")
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "0%" : OutputNumber.fixed(Double(part) * 100 / Double(whole), 1) + "%"
    }
}

/// One spot, to scale: footprints, townhouse slices (dashed outlines), each address with its house
/// number — a dot coloured by its link's confidence, a line to the building's outline for a
/// proximity link, a cross when unlinked.
enum SpotMap {
    static let side = 380.0

    static func draw(_ scene: ReportModel.SpotScene) -> String {
        var map = SVGMap(window: scene.view, fitting: side)
        var footprintOf: [String: Footprint] = [:]
        for (id, f) in scene.buildings {
            if footprintOf[id] == nil { footprintOf[id] = f }
            map.footprint(f, fill: ColorScale.footprintFill, stroke: ColorScale.footprintStroke)
        }
        for u in scene.units {
            map.footprint(u, fill: "none", stroke: ColorScale.unitStroke, strokeWidth: 1.2, dash: "3 2")
        }
        map.groundRect(scene.spot.window, stroke: "#888", dash: "2 4")
        // Lines first, then points and labels on top.
        for a in scene.addresses {
            let o = a.address.outcome, p = a.metric
            guard o.method == .proximity, let b = o.building, let f = footprintOf[b] else { continue }
            map.line(p, Self.nearestOnOutline(f, to: p) ?? p, color: ColorScale.confidence(o.confidence), width: 2)
        }
        for a in scene.addresses {
            let o = a.address.outcome, p = a.metric
            let number = a.address.houseNumber ?? ""
            if o.building == nil {
                map.cross(p, size: 8, color: ColorScale.unlinked, title: "\(a.address.id) \(number): unlinked")
            } else {
                let text = "\(a.address.id) \(number): \(o.method!.rawValue) \(OutputNumber.fixed(o.confidence, 3))"
                map.circle(p, radius: 3.5, fill: ColorScale.confidence(o.confidence), stroke: o.method == .proximity ? "#000" : "#fff", title: text)
            }
        }
        placeLabels(scene, on: &map)
        map.scaleBar()
        return map.svg(label: "spot map", className: "spot")
    }

    /// House numbers where they do not cover one another: the most doubtful addresses' first (then in
    /// address order), each tried right above, right below and left of its point, and left out
    /// when all three are taken (every point keeps its number in its hover title).
    static func placeLabels(_ scene: ReportModel.SpotScene, on map: inout SVGMap) {
        let order = scene.addresses.sorted { a, b in
            let wa = WorstSpots.weight(of: a.address.outcome), wb = WorstSpots.weight(of: b.address.outcome)
            return wa != wb ? wa > wb : a.address.index < b.address.index
        }
        var taken: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        for a in order {
            guard let number = a.address.houseNumber, !number.isEmpty else { continue }
            let unlinked = a.address.outcome.building == nil
            let size = unlinked ? 10.0 : 9.0
            let width = Double(number.count) * size * 0.62, p = map.px(a.metric)
            // (dx, dy of the baseline, anchor)
            for (dx, dy, anchor) in [(5.0, -4.0, "start"), (5.0, size + 2, "start"), (-5.0, -4.0, "end")] {
                let x0 = anchor == "start" ? p.x + dx : p.x + dx - width
                let box = (x0: x0, y0: p.y + dy - size, x1: x0 + width, y1: p.y + dy + 2)
                if taken.contains(where: { box.x0 < $0.x1 && $0.x0 < box.x1 && box.y0 < $0.y1 && $0.y0 < box.y1 }) { continue }
                taken.append(box)
                map.label(number, at: a.metric, dx: dx, dy: dy, size: size, color: unlinked ? "#000" : "#333",
                          anchor: anchor, weight: unlinked ? "bold" : nil)
                break
            }
        }
    }

    /// The point of a footprint's rings nearest to `p` (metres).
    static func nearestOnOutline(_ f: Footprint, to p: Point2) -> Point2? {
        var best: Point2?
        var bestD = Double.infinity
        for polygon in f.polygons {
            for ring in polygon.rings where ring.count >= 2 {
                for k in 0..<(ring.count - 1) {
                    let a = ring[k], b = ring[k + 1]
                    let dx = b.x - a.x, dy = b.y - a.y
                    let len2 = dx * dx + dy * dy
                    let t = len2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0
                    let q = Point2(x: a.x + t * dx, y: a.y + t * dy)
                    let d = q.distance(to: p)
                    if d < bestD { bestD = d; best = q }
                }
            }
        }
        return best
    }
}

/// The confidence histogram of report.json's bands, with the unlinked addresses as a last bar.
enum ConfidenceChart {
    static func draw(_ report: RunReport) -> String {
        var bars: [(label: String, count: Int, color: String)] = report.confidenceHistogram.map { band in
            let low = Double(band.band.dropFirst().prefix { $0 != "," }) ?? 0.5
            return (band.band, band.links, ColorScale.confidence(low))
        }
        bars.append(("unlinked", report.counts.unlinked, ColorScale.unlinked))
        let width = 560.0, height = 220.0, left = 56.0, bottom = 36.0, top = 16.0
        let maxCount = max(1, bars.map(\.count).max() ?? 1)
        let slot = (width - left - 10) / Double(bars.count)
        let n = SVGMap.n
        var body = ""
        body += "<line x1=\"\(n(left))\" y1=\"\(n(height - bottom))\" x2=\"\(n(width - 10))\" y2=\"\(n(height - bottom))\" stroke=\"#444\"/>\n"
        for (k, bar) in bars.enumerated() {
            let h = (height - bottom - top) * Double(bar.count) / Double(maxCount)
            let x = left + Double(k) * slot + 6
            body += "<rect x=\"\(n(x))\" y=\"\(n(height - bottom - h))\" width=\"\(n(slot - 12))\" height=\"\(n(h))\" fill=\"\(bar.color)\"><title>\(HTMLText.escape(bar.label)): \(bar.count)</title></rect>\n"
            body += "<text x=\"\(n(x + (slot - 12) / 2))\" y=\"\(n(height - bottom - h - 4))\" font-size=\"11\" text-anchor=\"middle\">\(bar.count)</text>\n"
            body += "<text x=\"\(n(x + (slot - 12) / 2))\" y=\"\(n(height - bottom + 16))\" font-size=\"11\" text-anchor=\"middle\">\(HTMLText.escape(bar.label))</text>\n"
        }
        body += "<text x=\"8\" y=\"\(n(top + 4))\" font-size=\"11\">links</text>\n"
        return "<svg class=\"chart\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"confidence histogram\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fbfbf8\"/>\n" + body + "</svg>\n"
    }
}
