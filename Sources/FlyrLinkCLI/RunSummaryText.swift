import FlyrLink
import Foundation

/// The short summary printed after a run.
enum RunSummaryText {
    static func make(_ run: LinkRun) -> String {
        let c = run.report.counts
        var lines = [
            "flyr-link: \(c.addresses + c.rejected) addresses → \(c.linked) linked, \(c.unlinked) unlinked, \(c.rejected) rejected"
                + (c.outsideTerritory > 0 ? " (\(c.outsideTerritory) outside the territory)" : ""),
        ]
        for m in MatchMethod.allCases {
            lines.append("  \(m.rawValue): \(c.byMethod[m.rawValue] ?? 0)")
        }
        for (reason, n) in c.unlinkedByReason.sorted(by: { $0.key < $1.key }) {
            lines.append("  unlinked, \(reason): \(n)")
        }
        lines.append("  buildings: \(c.buildings) (\(c.buildingsWithAddresses) with addresses, \(c.buildingsRepaired) repaired, \(c.buildingsRejected) rejected)"
                     + (c.townhomeRows > 0 ? ", \(c.townhomeRows) townhouse rows in \(c.units) units" : ""))
        lines.append("  outputs: \(PostgresTarget.redacted(run.options.output))")
        // (A GeoPackage holds report.json's text as its `report` table; no page is drawn.)
        if run.options.writeHTML, run.options.format != .gpkg, PostgresTarget.conninfo(from: run.options.output) == nil {
            lines.append("  report: \((run.options.output as NSString).appendingPathComponent(ReportFile.name))")
        }
        return lines.joined(separator: "\n")
    }
}
