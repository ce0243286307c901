/// Scores for one slice of the addresses (a truth kind, a placement, or everything).
public struct GroupScore: Codable, Sendable, Equatable {
    public var name: String
    /// Truth addresses in this slice, and how many of them have a true building.
    public var addresses = 0
    public var withBuilding = 0
    /// Rows with a building_id (duplicates and unknown addresses included).
    public var links = 0
    public var correct = 0
    /// Links to a building other than the true one.
    public var wrongBuilding = 0
    /// Links for addresses whose truth has no building (vacant lots).
    public var falseLinks = 0
    /// Truth has a building but the address got no link.
    public var missed = 0
    /// Extra link rows for an address already linked; each counts as an error.
    public var duplicates = 0
    /// Links whose address_id is not in truth.
    public var unknownAddress = 0
    public var precision = 0.0
    public var recall = 0.0
    public var f1 = 0.0

    public init(name: String) { self.name = name }

    mutating func finish() {
        precision = links == 0 ? 0 : Double(correct) / Double(links)
        recall = withBuilding == 0 ? 0 : Double(correct) / Double(withBuilding)
        f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
    }
}

/// Link accuracy for confidences in [lower, upper) — the last band includes 1.0.
public struct ConfidenceBand: Codable, Sendable, Equatable {
    public var lower: Double
    public var upper: Double
    public var links = 0
    public var correct = 0
    public var accuracy = 0.0

    public var label: String {
        let closing = upper >= 1.0 ? "]" : ")"
        return "[\(lower),\(upper)\(closing)"
    }
}

/// Optional cross-check against the addresses file.
public struct AddressFileCheck: Codable, Sendable, Equatable {
    public var addressesInFile = 0
    public var truthAddressesNotInFile = 0
    public var fileAddressesNotInTruth = 0
    public var linksToAddressesNotInFile = 0
}

/// Everything `flyr-synth evaluate` prints. All lists are sorted, so output is deterministic.
public struct EvaluationResult: Codable, Sendable, Equatable {
    public var linkRows = 0
    public var overall = GroupScore(name: "all")
    public var byKind: [GroupScore] = []
    public var byPlacement: [GroupScore] = []
    public var confidenceBands: [ConfidenceBand] = []
    /// Links with no confidence or one outside [0.5, 1.0]; they are in no band.
    public var linksOutsideBands = 0
    /// Links with confidence in [0.9, 1.0].
    public var highConfidenceLinks = 0
    public var highConfidenceCorrect = 0
    public var highConfidenceAccuracy = 0.0
    /// Address ids that appear on more than one row, sorted.
    public var duplicateAddressIds: [String] = []
    /// Up to 20 link address ids missing from truth, sorted.
    public var unknownAddressIdsSample: [String] = []
    public var addressFile: AddressFileCheck?
}
