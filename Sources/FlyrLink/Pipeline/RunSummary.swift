/// Fills the report's counts and confidence histogram from a finished run.
package enum RunSummary {
    package static let bands: [(String, Double, Double)] = [
        ("[0.5,0.6)", 0.5, 0.6), ("[0.6,0.7)", 0.6, 0.7), ("[0.7,0.8)", 0.7, 0.8),
        ("[0.8,0.9)", 0.8, 0.9), ("[0.9,0.95)", 0.9, 0.95), ("[0.95,1.0]", 0.95, 1.01),
    ]

    /// The first band holding `confidence`, else the first.
    package static func bandIndex(of confidence: Double) -> Int {
        bands.firstIndex { confidence >= $0.1 && confidence < $0.2 } ?? 0
    }

    /// Counted with arrays indexed by method, band and building, not string-keyed dictionaries: this
    /// runs over every link and address.
    static func counts(_ run: LinkRun, accessory: [Bool], repaired: Int, outsideAddresses: Int, outsideBuildings: Int,
                       buildingRejects: Int, addressRejects: Int) -> (RunReport.Counts, [RunReport.Band]) {
        var c = RunReport.Counts()
        c.addresses = run.addresses.count
        c.linked = run.links.count
        c.unlinked = run.addresses.count - run.links.count
        c.rejected = addressRejects
        c.outsideTerritory = outsideAddresses
        let methods = MatchMethod.allCases
        var byMethod = [Int](repeating: 0, count: methods.count)
        var byBand = [Int](repeating: 0, count: bands.count)
        for l in run.links {
            byMethod[methods.firstIndex(of: l.method)!] += 1
            byBand[bandIndex(of: l.confidence)] += 1
        }
        for (m, n) in zip(methods, byMethod) { c.byMethod[m.rawValue] = n }
        for r in run.unlinkedReason { if let r { c.unlinkedByReason[r, default: 0] += 1 } }
        c.buildings = run.buildings.count
        c.buildingsRejected = buildingRejects
        c.buildingsOutsideTerritory = outsideBuildings
        var withAddresses = 0
        for b in run.buildings.indices where !run.linksOfBuilding(b).isEmpty { withAddresses += 1 }
        c.buildingsWithAddresses = withAddresses
        c.buildingsRepaired = repaired
        c.accessoryBuildings = accessory.reduce(0) { $1 ? $0 + 1 : $0 }
        var isRow = [Bool](repeating: false, count: run.buildings.count)
        for u in run.units where !isRow[u.buildingIndex] {
            isRow[u.buildingIndex] = true
            c.townhomeRows += 1
        }
        c.units = run.units.count
        return (c, zip(bands, byBand).map { RunReport.Band(band: $0.0.0, links: $0.1) })
    }
}
