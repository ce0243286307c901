/// Fills the report's counts and confidence histogram from a finished run.
enum RunSummary {
    static let bands: [(String, Double, Double)] = [
        ("[0.5,0.6)", 0.5, 0.6), ("[0.6,0.7)", 0.6, 0.7), ("[0.7,0.8)", 0.7, 0.8),
        ("[0.8,0.9)", 0.8, 0.9), ("[0.9,0.95)", 0.9, 0.95), ("[0.95,1.0]", 0.95, 1.01),
    ]

    static func band(of confidence: Double) -> String {
        bands.first { confidence >= $0.1 && confidence < $0.2 }?.0 ?? bands[0].0
    }

    static func count(_ run: inout LinkRun, accessory: [Bool], repaired: Int, outsideAddresses: Int, outsideBuildings: Int,
                      buildingRejects: Int, addressRejects: Int) {
        var c = RunReport.Counts()
        c.addresses = run.addresses.count
        c.linked = run.links.count
        c.unlinked = run.addresses.count - run.links.count
        c.rejected = addressRejects
        c.outsideTerritory = outsideAddresses
        for m in MatchMethod.allCases { c.byMethod[m.rawValue] = 0 }
        for l in run.links { c.byMethod[l.method.rawValue, default: 0] += 1 }
        for r in run.unlinkedReason.compactMap({ $0 }) { c.unlinkedByReason[r, default: 0] += 1 }
        c.buildings = run.buildings.count
        c.buildingsRejected = buildingRejects
        c.buildingsOutsideTerritory = outsideBuildings
        c.buildingsWithAddresses = run.buildings.indices.filter { !run.linksOfBuilding($0).isEmpty }.count
        c.buildingsRepaired = repaired
        c.accessoryBuildings = accessory.filter { $0 }.count
        c.townhomeRows = Set(run.units.map(\.buildingIndex)).count
        c.units = run.units.count
        run.report.counts = c
        var histogram = Dictionary(uniqueKeysWithValues: bands.map { ($0.0, 0) })
        for l in run.links { histogram[band(of: l.confidence), default: 0] += 1 }
        run.report.confidenceHistogram = bands.map { RunReport.Band(band: $0.0, links: histogram[$0.0] ?? 0) }
    }
}
