/// Scores a links table against truth.
///
/// A link is a row with a non-empty building_id. The first row for an address is
/// scored (correct / wrong building / false link / unknown address); any further row
/// for the same address is an error (`duplicates`) and, if it names a building, a
/// link that is not correct. Recall's denominator is the truth addresses that have
/// a building. `addressIds` (from addresses.geojson) adds a consistency check.
public func evaluate(links: [LinkRecord], truth: [String: TruthRecord], addressIds: Set<String>? = nil) -> EvaluationResult {
    let unknownGroup = "(not in truth)"
    var result = EvaluationResult()
    result.linkRows = links.count
    var overall = GroupScore(name: "all")
    var byKind: [String: GroupScore] = [:]
    var byPlacement: [String: GroupScore] = [:]
    let edges = [0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0]
    var bands = (0..<(edges.count - 1)).map { ConfidenceBand(lower: edges[$0], upper: edges[$0 + 1]) }

    func update(_ record: TruthRecord?, _ change: (inout GroupScore) -> Void) {
        change(&overall)
        let kind = record?.kind ?? unknownGroup
        let placement = record?.placement ?? unknownGroup
        change(&byKind[kind, default: GroupScore(name: kind)])
        change(&byPlacement[placement, default: GroupScore(name: placement)])
    }

    // Truth-side counts.
    for record in truth.values {
        update(record) { g in
            g.addresses += 1
            if record.buildingId != nil { g.withBuilding += 1 }
        }
    }

    var seen: Set<String> = []
    var duplicated: Set<String> = []
    var linkedCorrectlyOrNot: Set<String> = []  // addresses whose first row named a building
    var unknownIds: Set<String> = []
    for link in links {
        let record = truth[link.addressId]
        let isDuplicate = !seen.insert(link.addressId).inserted
        if isDuplicate { duplicated.insert(link.addressId) }
        guard let building = link.buildingId else { continue }
        var correct = false
        update(record) { g in
            g.links += 1
            if isDuplicate {
                g.duplicates += 1
            } else if let record {
                if record.buildingId == nil {
                    g.falseLinks += 1
                } else if record.buildingId == building {
                    g.correct += 1
                    correct = true
                } else {
                    g.wrongBuilding += 1
                }
            } else {
                g.unknownAddress += 1
            }
        }
        if !isDuplicate { linkedCorrectlyOrNot.insert(link.addressId) }
        if record == nil { unknownIds.insert(link.addressId) }

        if let c = link.confidence, c >= 0.5, c <= 1.0 {
            // Last band is closed at 1.0.
            let band = edges.lastIndex { c >= $0 }.map { min($0, bands.count - 1) }!
            bands[band].links += 1
            if correct { bands[band].correct += 1 }
            if c >= 0.9 {
                result.highConfidenceLinks += 1
                if correct { result.highConfidenceCorrect += 1 }
            }
        } else {
            result.linksOutsideBands += 1
        }
    }

    // Missed: truth has a building, and no first row for the address named one.
    for record in truth.values where record.buildingId != nil && !linkedCorrectlyOrNot.contains(record.addressId) {
        update(record) { $0.missed += 1 }
    }

    overall.finish()
    result.overall = overall
    result.byKind = byKind.values.map { var g = $0; g.finish(); return g }.sorted { $0.name < $1.name }
    result.byPlacement = byPlacement.values.map { var g = $0; g.finish(); return g }.sorted { $0.name < $1.name }
    for i in bands.indices where bands[i].links > 0 {
        bands[i].accuracy = Double(bands[i].correct) / Double(bands[i].links)
    }
    result.confidenceBands = bands
    if result.highConfidenceLinks > 0 {
        result.highConfidenceAccuracy = Double(result.highConfidenceCorrect) / Double(result.highConfidenceLinks)
    }
    result.duplicateAddressIds = duplicated.sorted()
    result.unknownAddressIdsSample = Array(unknownIds.sorted().prefix(20))

    if let addressIds {
        var check = AddressFileCheck()
        check.addressesInFile = addressIds.count
        check.truthAddressesNotInFile = truth.keys.filter { !addressIds.contains($0) }.count
        check.fileAddressesNotInTruth = addressIds.filter { truth[$0] == nil }.count
        check.linksToAddressesNotInFile = links.filter { $0.buildingId != nil && !addressIds.contains($0.addressId) }.count
        result.addressFile = check
    }
    return result
}
