/// report.html: one self-contained page (inline CSS, SVG and a few lines of script; nothing is
/// fetched, the OpenStreetMap links are plain links followed only when clicked). The same run gives
/// the same bytes: no clock is read, numbers have fixed decimals, every list has a fixed order.
/// The run's wall times (report.json's `run` section, the one part that varies) sit between
/// `<!--run-->` and `<!--/run-->`.
public enum ReportPage {
    public static let fileName = "report.html"

    /// `reliability`: scored against a truth file (`flyr-link report --truth`), drawn under the histogram.
    static func make<S: ReportSource>(_ source: S, reliability: Reliability? = nil) throws -> String {
        let model = try ReportModel(source)
        let r = source.report
        var h = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>flyr-link report — campaign \(e(r.campaignID))</title>
        <style>\(css)</style>
        </head>
        <body>
        <header><h1>flyr-link run report</h1>
        <p>campaign <code>\(e(r.campaignID))</code> · flyr-link \(e(r.version)) · frame <code>\(e(r.metricFrame))</code></p>
        <nav><a href="#summary">Summary</a> · <a href="#overview">Overview map</a> · <a href="#confidence">Confidence</a> · <a href="#spots">Spots to check</a> · <a href="#long-links">Long links</a> · <a href="#busiest">Buildings with most addresses</a></nav>
        </header>

        """
        h += summary(source, model)
        h += overview(model)
        h += confidence(r, reliability)
        h += spots(model)
        h += longLinks(model)
        h += busiest(model)
        h += """
        <footer><p>Doubtful: unlinked, or linked with confidence below \(OutputNumber.fixed(ReportSettings.doubtfulBelow, 2)). \
        Maps are drawn in the run's metric frame (true to scale). <span id="page-check">page script did not run</span></p></footer>
        <script>
        (function () {
          var maps = document.querySelectorAll('svg').length;
          document.body.setAttribute('data-rendered', String(maps));
          document.getElementById('page-check').textContent = 'page script ran: ' + maps + ' drawings';
        })();
        </script>
        </body>
        </html>

        """
        return h
    }

    // MARK: sections

    static func summary<S: ReportSource>(_ source: S, _ model: ReportModel) -> String {
        let r = source.report, c = r.counts
        var h = "<section id=\"summary\"><h2>Summary</h2>\n"
        h += "<p class=\"headline\">\(c.addresses) addresses → <b>\(c.linked) linked</b>, <b>\(c.unlinked) unlinked</b>, \(c.rejected) rejected"
        if c.outsideTerritory > 0 { h += ", \(c.outsideTerritory) outside the territory" }
        h += "</p>\n"
        if !model.spots.isEmpty {
            h += "<p>Most doubtful spots: "
            h += model.spots.prefix(3).enumerated().map { k, s in
                "<a href=\"#spot-\(k + 1)\">\(k + 1). \(latLon(s.centreLonLat))</a> (\(s.spot.unlinked) unlinked, \(s.spot.unsure) unsure)"
            }.joined(separator: " · ")
            h += "</p>\n"
        }
        h += "<div class=\"cols\">\n<div><h3>Inputs</h3><table>\n<tr><th></th><th>source</th><th>layer</th><th>CRS</th><th>read</th><th>accepted</th><th>rejected</th></tr>\n"
        for role in r.inputs.keys.sorted() {
            let i = r.inputs[role]!
            h += "<tr><th>\(e(role))</th><td class=\"id\">\(e(i.source))</td><td>\(e(i.layer))</td><td>\(e(i.crs))\(i.crsAssumed ? " (assumed)" : "")</td>"
            h += "<td class=\"n\">\(i.featuresRead)</td><td class=\"n\">\(i.accepted)</td><td class=\"n\">\(i.rejected)</td></tr>\n"
        }
        h += "</table>\n"
        if let t = r.territory { h += "<p>Territory: <code>\(e(t))</code></p>\n" }
        h += "<h3>Addresses</h3><table>\n"
        h += row("addresses accepted", c.addresses) + row("linked", c.linked)
        for m in c.byMethod.keys.sorted() { h += row("· \(m)", c.byMethod[m]!) }
        h += row("unlinked", c.unlinked)
        for reason in c.unlinkedByReason.keys.sorted() { h += row("· \(reason)", c.unlinkedByReason[reason]!) }
        h += row("rejected", c.rejected) + row("outside the territory", c.outsideTerritory)
        h += "</table>\n</div>\n<div><h3>Buildings</h3><table>\n"
        h += row("buildings", c.buildings) + row("with addresses", c.buildingsWithAddresses) + row("repaired", c.buildingsRepaired)
        h += row("rejected", c.buildingsRejected) + row("outside the territory", c.buildingsOutsideTerritory)
        h += row("accessory", c.accessoryBuildings) + row("townhome rows", c.townhomeRows) + row("unit slices", c.units)
        h += "</table>\n<h3>Rejects by reason</h3>"
        let rejects = source.rejectsByReason
        if rejects.isEmpty {
            h += "<p>none</p>\n"
        } else {
            h += "<table>\n"
            for reason in rejects.keys.sorted() { h += row(reason, rejects[reason]!) }
            h += "</table>\n"
        }
        h += "<h3>Options</h3><table>\n"
        for k in r.options.keys.sorted() { h += "<tr><th>\(e(k))</th><td class=\"id\">\(e(r.options[k]!))</td></tr>\n" }
        h += "</table>\n<h3>Timings</h3>\n<!--run--><table>\n"
        for stage in r.run.secondsByStage.keys.sorted() { h += "<tr><th>\(e(stage))</th><td class=\"n\">\(OutputNumber.fixed(r.run.secondsByStage[stage]!, 3)) s</td></tr>\n" }
        h += "<tr><th>total (\(r.run.threads) threads)</th><td class=\"n\">\(OutputNumber.fixed(r.run.secondsTotal, 3)) s</td></tr>\n</table><!--/run-->\n"
        h += "</div>\n</div>\n</section>\n"
        return h
    }

    static func overview(_ model: ReportModel) -> String {
        var h = "<section id=\"overview\"><h2>Overview map</h2>\n"
        guard let grid = model.grid else { return h + noGeometry + "</section>\n" }
        h += "<p>Each \(SVGMap.lengthText(grid.cell)) square is coloured by the share of its addresses that are doubtful "
        h += "(unlinked, or confidence below \(OutputNumber.fixed(ReportSettings.doubtfulBelow, 2))); grey: buildings without addresses; "
        h += "dashed: the buildings' extent; numbers: the spots to check. \(grid.columns) × \(grid.rows) cells.</p>\n"
        h += OverviewMap.draw(grid, extent: model.buildingExtent, spots: model.spots)
        h += "<div class=\"legend\">"
        var low = "0"
        for (k, color) in ColorScale.shareSteps.enumerated() {
            let high = OverviewMap.percent(Int(ColorScale.shareBounds[k] * 1000), 1000)
            let text = k == 0 ? "none doubtful" : "\(low)–\(high)"
            h += "<span><i style=\"background:\(color)\"></i>\(text)</span>"
            low = high
        }
        h += "<span><i style=\"background:\(ColorScale.buildingsOnly)\"></i>buildings, no address</span></div>\n</section>\n"
        return h
    }

    static func confidence(_ r: RunReport, _ reliability: Reliability?) -> String {
        var h = "<section id=\"confidence\"><h2>Confidence</h2>\n<p>Links per confidence band (report.json's <code>confidence_histogram</code>) and the unlinked addresses. "
        guard let reliability else {
            h += "A reliability curve needs ground truth: <code>flyr-link report OUT_DIR --truth FILE</code> draws it.</p>\n"
            return h + ConfidenceChart.draw(r) + "</section>\n"
        }
        h += "</p>\n" + ConfidenceChart.draw(r)
        h += "<h3>Reliability against <code>\(e(reliability.truthFile))</code></h3>\n"
        h += "<p>Per band, the share of links whose building is the true one, at the band's mean confidence; dashed: a calibrated model. "
        h += "\(reliability.withoutTruth) linked addresses have no truth row and are not scored.</p>\n<div class=\"cols\"><div>"
        h += ReliabilityChart.draw(reliability) + "</div><div><table>\n<tr><th>band</th><th>links scored</th><th>correct</th><th>share</th><th>mean confidence</th></tr>\n"
        for b in reliability.bands {
            h += "<tr><th>\(e(b.label))</th><td class=\"n\">\(b.links)</td><td class=\"n\">\(b.correct)</td>"
            h += "<td class=\"n\">\(b.links == 0 ? "" : OutputNumber.fixed(b.accuracy, 3))</td><td class=\"n\">\(b.links == 0 ? "" : OutputNumber.fixed(b.meanConfidence, 3))</td></tr>\n"
        }
        return h + "</table></div></div>\n</section>\n"
    }

    static func spots(_ model: ReportModel) -> String {
        var h = "<section id=\"spots\"><h2>Spots to check</h2>\n"
        guard model.grid != nil else { return h + noGeometry + "</section>\n" }
        guard !model.spots.isEmpty else { return h + "<p>No doubtful address: nothing to check.</p>\n</section>\n" }
        h += "<p>The \(model.spots.count) places with the most unlinked or unsure addresses in a \(SVGMap.lengthText(2 * ReportSettings.spotCell)) square (dotted), worst first. "
        h += "Dots: linked addresses coloured by confidence (black rim: by proximity, with a line to the building); crosses: unlinked; "
        h += "dashed purple: townhouse unit slices. House numbers that would cover one another are left out; hover a point for its id and number.</p>\n<div class=\"legend\">"
        var low = "0.5"
        for step in ColorScale.confidenceSteps {
            let high = step.below > 1 ? "1" : OutputNumber.fixed(step.below, 2)
            h += "<span><i style=\"background:\(step.color)\"></i>\(low)–\(high)</span>"
            low = high
        }
        h += "<span><b>×</b> unlinked</span></div>\n<div class=\"spots\">\n"
        for (k, scene) in model.spots.enumerated() {
            let s = scene.spot
            h += "<figure id=\"spot-\(k + 1)\"><figcaption><b>\(k + 1).</b> \(latLon(scene.centreLonLat)) — "
            h += "\(s.unlinked) unlinked, \(s.unsure) unsure of \(s.addresses) addresses · \(osmLink(scene.centreLonLat))</figcaption>\n"
            h += SpotMap.draw(scene)
            let unlinked = scene.addresses.filter { $0.address.outcome.building == nil && scene.spot.window.contains($0.metric) }
            if !unlinked.isEmpty {
                let shown = unlinked.prefix(6).map { a in "<code>\(e(a.address.id))</code> \(e(a.address.houseNumber ?? ""))" }
                h += "<p class=\"small\">unlinked: " + shown.joined(separator: ", ") + (unlinked.count > 6 ? " and \(unlinked.count - 6) more" : "") + "</p>\n"
            }
            h += "</figure>\n"
        }
        h += "</div>\n</section>\n"
        return h
    }

    static func longLinks(_ model: ReportModel) -> String {
        var h = "<section id=\"long-links\"><h2>Long links</h2>\n"
        guard !model.longLinks.isEmpty else { return h + "<p>No link by proximity.</p>\n</section>\n" }
        h += "<p>The longest links by proximity (address point to footprint).</p>\n<table>\n"
        h += "<tr><th>#</th><th>address id</th><th>number</th><th>building id</th><th>distance</th><th>confidence</th><th>map</th></tr>\n"
        for (k, l) in model.longLinks.enumerated() {
            h += "<tr><td class=\"n\">\(k + 1)</td><td class=\"id\">\(e(l.address.id))</td><td>\(e(l.address.houseNumber ?? ""))</td>"
            h += "<td class=\"id\">\(e(l.building))</td><td class=\"n\">\(OutputNumber.fixed(l.distance, 2)) m</td>"
            h += "<td class=\"n\">\(OutputNumber.fixed(l.confidence, 3))</td><td>\(l.address.lonLat.map(osmLink) ?? "")</td></tr>\n"
        }
        return h + "</table>\n</section>\n"
    }

    static func busiest(_ model: ReportModel) -> String {
        var h = "<section id=\"busiest\"><h2>Buildings with most addresses</h2>\n"
        guard !model.busiest.isEmpty else { return h + "<p>No building has more than one address.</p>\n</section>\n" }
        h += "<table>\n<tr><th>#</th><th>building id</th><th>addresses</th><th>unit slices</th><th>map</th></tr>\n"
        for (k, b) in model.busiest.enumerated() {
            let box = b.building.lonLatBox
            h += "<tr><td class=\"n\">\(k + 1)</td><td class=\"id\">\(e(b.building.id))</td><td class=\"n\">\(b.addresses)</td>"
            h += "<td class=\"n\">\(b.units)</td><td>\(box.isEmpty ? "" : osmLink(box.center))</td></tr>\n"
        }
        return h + "</table>\n</section>\n"
    }

    // MARK: pieces

    static let noGeometry = "<p>Not drawn: this output holds no geometry (<code>--only links</code>).</p>\n"

    static func e(_ s: String) -> String { HTMLText.escape(s) }

    static func row(_ label: String, _ n: Int) -> String { "<tr><th>\(e(label))</th><td class=\"n\">\(n)</td></tr>\n" }

    static func latLon(_ p: Point2) -> String { "\(OutputNumber.fixed(p.y, 6)), \(OutputNumber.fixed(p.x, 6))" }

    /// OpenStreetMap's web map at the point, zoom 19: a plain link, not loaded with the page.
    static func osmURL(_ p: Point2) -> String {
        let lat = OutputNumber.fixed(p.y, 6), lon = OutputNumber.fixed(p.x, 6)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=19/\(lat)/\(lon)"
    }

    static func osmLink(_ p: Point2) -> String {
        "<a href=\"\(e(osmURL(p)))\" rel=\"noopener noreferrer\" target=\"_blank\">OpenStreetMap</a>"
    }

    static let css = """
    body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 32px;color:#1d1d1d;background:#fff}
    h1{font-size:22px;margin:16px 0 4px}h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:2px;margin-top:28px}h3{font-size:15px;margin:14px 0 4px}
    code,.id{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px;overflow-wrap:break-word}
    table{border-collapse:collapse;margin:4px 0}th,td{padding:2px 8px;text-align:left;border-bottom:1px solid #eee;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums}
    .cols{display:flex;flex-wrap:wrap;gap:32px}.cols>div{flex:1 1 420px}.headline{font-size:16px}
    .legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;margin:6px 0}.legend i{display:inline-block;width:14px;height:14px;margin-right:4px;vertical-align:-2px;border:1px solid #999}
    .spots{display:flex;flex-wrap:wrap;gap:18px}figure{margin:0;flex:0 0 380px}figcaption{font-size:12px;margin-bottom:4px}.small{font-size:12px;margin:4px 0}
    svg{display:block;border:1px solid #ccc}svg text{font-family:system-ui,sans-serif}
    """
}
