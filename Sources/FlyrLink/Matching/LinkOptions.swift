/// How addresses are linked. Distances in metres.
public struct LinkOptions: Sendable, Hashable, Codable {
    public enum Strategy: String, Sendable, Codable, CaseIterable {
        /// Containment, then proximity with the accessory and ownership rules, calibrated confidence.
        case flyr
        /// The baseline a GIS engineer writes first: containment, then the nearest footprint within
        /// the maximum distance. Kept to score against.
        case naive
    }

    /// Proximity links reach at most this far (see README: chosen from the synthetic-city evaluation).
    public var maxDistance: Double = LinkOptions.defaultMaxDistance
    public var strategy: Strategy = .flyr
    /// A footprint smaller than this, with a much larger building within `accessoryRadius`, is an
    /// accessory structure (garage, shed) and does not take an address from its main building.
    public var accessoryMaxArea: Double = 50
    public var accessoryRadius: Double = 20
    /// An address loses its proximity link when another address (a different house number) linked
    /// to the same building lies closer to the spot it would link to than this fraction of its own
    /// distance: the building is clearly that other address's house (a vacant lot beside it).
    public var ownershipRatio: Double = 0.7
    /// Points this close to a footprint always keep it (an entrance drawn just off the outline).
    public var ownershipExemptDistance: Double = 4

    /// Snapshots: an address keeps its previous building unless the new one is better by more than
    /// this many metres (see StickyLinks).
    public var stickyMargin: Double = LinkOptions.defaultStickyMargin

    public static let defaultMaxDistance: Double = 40
    public static let defaultStickyMargin: Double = 2

    public init() {}
}
