import Foundation

/// A mistake a run suspects but cannot be sure of: written to report.json (`warnings`) and, by
/// the command line, to stderr. `code` is stable (for scripts); `message` is one line for a person.
public struct RunWarning: Sendable, Codable, Equatable {
    public var code: String
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// The checks behind the warnings: runs that "work" (exit 0) but are probably not what the user
/// meant — a key field not mapped (a Shapefile's `addr_house`), layers that do not overlap (a
/// wrong `--addresses-crs`), most of a layer rejected or most addresses unlinked, heights in
/// feet. Each looks at what the run already holds; none reads the inputs again. In a fixed
/// order, so the list is the same for the same inputs.
package enum RunWarnings {
    /// "Most of a layer": more than this share rejected, or of the addresses unlinked.
    static let largeShare = 0.5

    static func collect(_ run: LinkRun, buildings: LinkPipeline.SourceSummary, addresses: LinkPipeline.SourceSummary,
                        addressBox: BBox, buildingBox: BBox) -> [RunWarning] {
        sources(rejects: run.rejects, buildings: buildings, addresses: addresses, addressBox: addressBox, buildingBox: buildingBox)
            + links(run.report.counts) + heights(run.buildings, unit: run.options.heightUnit)
    }

    /// The warnings the sources alone decide, first in the list (a distributed run's plan finds them).
    package static func sources(rejects: [Reject], buildings: LinkPipeline.SourceSummary, addresses: LinkPipeline.SourceSummary,
                        addressBox: BBox, buildingBox: BBox) -> [RunWarning] {
        var out: [RunWarning] = []
        for field in [AddressField.houseNumber, .streetName] where addresses.featuresRead > 0 && addresses.resolvedFields[field.rawValue] == nil {
            out.append(unmapped(field, fields: addresses.fields))
        }
        if !addressBox.isEmpty, !buildingBox.isEmpty, !addressBox.intersects(buildingBox) {
            out.append(RunWarning(code: "extents_disjoint", message:
                "the addresses (\(describe(addressBox))) and the buildings (\(describe(buildingBox))) do not overlap: "
                + "is a CRS wrong? (--addresses-crs, --buildings-crs)"))
        }
        for (layer, summary) in [("buildings", buildings), ("addresses", addresses)] {
            let rejects = rejects.filter { $0.layer == layer }
            guard summary.featuresRead > 0, Double(rejects.count) > largeShare * Double(summary.featuresRead) else { continue }
            out.append(RunWarning(code: "many_rejected", message:
                "\(layer): \(rejects.count) of \(summary.featuresRead) features rejected (\(percent(rejects.count, summary.featuresRead)); "
                + "most common: \(mostCommon(rejects.map(\.reason))); see rejects.csv)"))
        }
        return out
    }

    /// The warning the links decide (from the run's counts).
    package static func links(_ c: RunReport.Counts) -> [RunWarning] {
        var out: [RunWarning] = []
        if c.addresses > 0, Double(c.unlinked) > largeShare * Double(c.addresses) {
            let top = c.unlinkedByReason.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key ?? "unknown"
            out.append(RunWarning(code: "many_unlinked", message:
                "addresses: \(c.unlinked) of \(c.addresses) unlinked (\(percent(c.unlinked, c.addresses)); most common reason: \(top))"))
        }
        return out
    }

    /// The warning of heights in feet (the buildings' rows decide it), last in the list.
    package static func heights(_ buildings: [Building], unit: RunOptions.HeightUnit?) -> [RunWarning] {
        heights(looksLikeFeet: unit == nil ? HeightCheck.looksLikeFeet(buildings) : nil)
    }

    /// `feet`: why the heights look like feet (`HeightCheck`), nil if they do not or a unit was given.
    package static func heights(looksLikeFeet feet: String?) -> [RunWarning] {
        guard let feet else { return [] }
        return [RunWarning(code: "height_in_feet", message:
            "buildings: heights look like feet (\(feet)); pass --height-unit ft to write them in metres, or --height-unit m if they are metres")]
    }

    /// House number or street not read from any field: linking then has fewer clues and finds no
    /// townhouse rows. Names the source's fields that look like the one meant (a Shapefile cuts
    /// names to 10 characters: `addr_house`, `addr_stree`) and the flag that maps one.
    static func unmapped(_ field: AddressField, fields: [SourceField]) -> RunWarning {
        let what = field == .houseNumber ? "house numbers" : "street names"
        let close = fields.map(\.name).filter { looksLike(field, $0) }
        let hint: String
        if let first = close.first {
            hint = "the source has \(close.prefix(5).joined(separator: ", ")): pass --address-field \(field.rawValue)=\(first)"
        } else if !fields.isEmpty {
            let names = fields.prefix(12).map(\.name).joined(separator: ", ") + (fields.count > 12 ? ", …" : "")
            hint = "the source's fields: \(names); pass --address-field \(field.rawValue)=FIELD"
        } else {
            hint = "pass --address-field \(field.rawValue)=FIELD"
        }
        let cost = field == .houseNumber ? "links use fewer clues and no townhouse row is split" : "links use fewer clues"
        return RunWarning(code: "unmapped_field", message: "addresses: no \(what) read (no field mapped to \(field.rawValue)): \(cost); \(hint)")
    }

    /// Word beginnings that name a house number or a street in field names (English, Danish,
    /// German, French, Spanish and OSM), matched against each word of a field's name.
    static let fieldWords: [AddressField: [String]] = [
        .houseNumber: ["house", "hous", "hnr", "husnr", "hausn", "hsnr", "number", "num", "nr", "numero", "housenumber"],
        .streetName: ["street", "stree", "str", "road", "vej", "gade", "rue", "calle", "via", "thoroughfare"],
    ]

    static func looksLike(_ field: AddressField, _ name: String) -> Bool {
        let words = name.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        return words.contains { w in fieldWords[field, default: []].contains { w.hasPrefix($0) } }
    }

    private static func describe(_ b: BBox) -> String {
        String(format: "lon %.4f…%.4f, lat %.4f…%.4f", b.minX, b.maxX, b.minY, b.maxY)
    }

    private static func percent(_ n: Int, _ total: Int) -> String {
        "\(Int((100 * Double(n) / Double(total)).rounded()))%"
    }

    /// The most frequent text, ties to the first in sorted order.
    private static func mostCommon(_ texts: [String]) -> String {
        var counts: [String: Int] = [:]
        for t in texts { counts[t, default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }.map { "\($0.value)×: \($0.key)" } ?? "none"
    }
}

/// Whether a layer's heights look like feet: a storey is 2.5–4 m (8–13 ft), and a layer's
/// lowest tenth (garages, sheds, one-storey houses) is rarely above 9 m.
package enum HeightCheck {
    /// Too few heights say nothing.
    static let minimumHeights = 20

    /// A short description of why, or nil when the heights look like metres (or are too few).
    static func looksLikeFeet(_ buildings: [Building]) -> String? {
        let (heights, perLevel) = sortedHeights(buildings)
        return looksLikeFeet(heights: (heights.count, { heights[$0] }), perLevel: (perLevel.count, { perLevel[$0] }))
    }

    /// The buildings' positive heights and heights per level (with levels ≥ 1), each sorted.
    package static func sortedHeights(_ buildings: [Building]) -> (heights: [Double], perLevel: [Double]) {
        var heights: [Double] = [], perLevel: [Double] = []
        for b in buildings {
            guard let h = b.height, h > 0 else { continue }
            heights.append(h)
            if let l = b.levels, l >= 1 { perLevel.append(h / Double(l)) }
        }
        return (heights.sorted(), perLevel.sorted())
    }

    /// The same from the heights' and the heights per level's order statistics (`value(k)`: the
    /// k-th smallest; a plan made from shares finds them without holding every height).
    package static func looksLikeFeet(heights: (count: Int, value: (Int) -> Double), perLevel: (count: Int, value: (Int) -> Double)) -> String? {
        guard heights.count >= minimumHeights else { return nil }
        if perLevel.count >= minimumHeights {
            // Levels known: metres give 2.5–4 a storey, feet 8–13.
            let m = median(perLevel)
            return m > 5.5 ? String(format: "a median of %.1f per storey over %d buildings with levels", m, perLevel.count) : nil
        }
        let p10 = heights.value(heights.count / 10), m = median(heights)
        return p10 >= 9 && m >= 14 ? String(format: "median %.1f, lowest tenth up to %.1f over %d buildings", m, p10, heights.count) : nil
    }

    private static func median(_ xs: (count: Int, value: (Int) -> Double)) -> Double {
        xs.count % 2 == 1 ? xs.value(xs.count / 2) : (xs.value(xs.count / 2 - 1) + xs.value(xs.count / 2)) / 2
    }
}
