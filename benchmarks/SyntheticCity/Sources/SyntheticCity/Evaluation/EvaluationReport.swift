import Foundation

/// Plain-text rendering of an EvaluationResult (what `evaluate` prints without --json).
public enum EvaluationReport {
    public static func text(_ r: EvaluationResult) -> String {
        let o = r.overall
        var lines: [String] = []
        lines.append("links made:      \(o.links)")
        lines.append("correct links:   \(o.correct)")
        lines.append("precision:       \(fixed(o.precision))")
        lines.append("recall:          \(fixed(o.recall))   (of \(o.withBuilding) addresses whose truth has a building)")
        lines.append("F1:              \(fixed(o.f1))")
        lines.append("missed:          \(o.missed)   (truth building, no link)")
        lines.append("false links:     \(o.falseLinks)   (links for vacant-lot addresses)")
        lines.append("wrong building:  \(o.wrongBuilding)")
        lines.append("duplicate rows:  \(o.duplicates) links on repeated address ids (errors); "
            + "\(r.duplicateAddressIds.count) address ids repeated"
            + (r.duplicateAddressIds.isEmpty ? "" : ": " + r.duplicateAddressIds.prefix(10).joined(separator: " ")))
        lines.append("unknown address: \(o.unknownAddress) links to address ids not in truth"
            + (r.unknownAddressIdsSample.isEmpty ? "" : ": " + r.unknownAddressIdsSample.prefix(10).joined(separator: " ")))
        if let a = r.addressFile {
            lines.append("addresses file:  \(a.addressesInFile) addresses, \(a.truthAddressesNotInFile) truth ids not in it, "
                + "\(a.fileAddressesNotInTruth) not in truth, \(a.linksToAddressesNotInFile) links to ids not in it")
        }
        lines.append("")
        lines.append("by truth kind")
        lines.append(contentsOf: table(r.byKind, title: "kind"))
        lines.append("")
        lines.append("by placement")
        lines.append(contentsOf: table(r.byPlacement, title: "placement"))
        lines.append("")
        lines.append(pad("confidence", 14) + pad("links", 10, right: true) + pad("correct", 10, right: true)
            + pad("accuracy", 10, right: true))
        for b in r.confidenceBands {
            lines.append(pad(b.label, 14) + pad("\(b.links)", 10, right: true) + pad("\(b.correct)", 10, right: true)
                + pad(fixed(b.accuracy), 10, right: true))
        }
        lines.append("links without a confidence in [0.5,1.0]: \(r.linksOutsideBands)")
        lines.append("confidence >= 0.9: \(r.highConfidenceLinks) links, accuracy \(fixed(r.highConfidenceAccuracy))")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func table(_ groups: [GroupScore], title: String) -> [String] {
        let columns = ["addresses", "w/bldg", "links", "correct", "wrong", "false", "missed", "dup", "precision", "recall", "F1"]
        // 16 wide as always; wider only when a name needs it (hard-profile kinds such as vacant_beside_building).
        let nameWidth = max(16, (groups.map(\.name.count).max() ?? 0) + 1)
        var lines = [pad(title, nameWidth) + columns.map { pad($0, 10, right: true) }.joined()]
        for g in groups {
            let counts = [g.addresses, g.withBuilding, g.links, g.correct, g.wrongBuilding, g.falseLinks, g.missed, g.duplicates]
                .map { pad("\($0)", 10, right: true) }
            let rates = [g.precision, g.recall, g.f1].map { pad(fixed($0), 10, right: true) }
            lines.append(pad(g.name, nameWidth) + (counts + rates).joined())
        }
        return lines
    }

    static func fixed(_ x: Double) -> String { String(format: "%.4f", x) }

    private static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }
}
