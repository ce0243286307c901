/// Why an address stayed unlinked, for the report.
package enum UnlinkedReason: String, Sendable, CaseIterable {
    case nothingWithinReach = "no_building_within_max_distance"
    case ownedByAnotherAddress = "nearest_building_belongs_to_another_address"
    case lowConfidence = "confidence_below_0.5"

    /// The reason's place among the cases, for storing it in a number (a switch: `allCases`
    /// makes an array each time it is named, and this is asked per unlinked address).
    package var ordinal: Int {
        switch self {
        case .nothingWithinReach: 0
        case .ownedByAnotherAddress: 1
        case .lowConfidence: 2
        }
    }

    package init(ordinal: Int) {
        switch ordinal {
        case 0: self = .nothingWithinReach
        case 1: self = .ownedByAnotherAddress
        case 2: self = .lowConfidence
        default: preconditionFailure("no unlinked reason \(ordinal)")
        }
    }
}
