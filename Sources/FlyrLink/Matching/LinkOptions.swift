/// How addresses are linked. Distances in metres.
public struct LinkOptions: Sendable, Hashable, Codable {
    public enum Strategy: String, Sendable, Codable, CaseIterable {
        /// Every candidate within reach scored by the link model from its evidence; confidence is
        /// the calibrated probability that the link is right.
        case flyr
        /// The baseline a GIS engineer writes first: containment, then the nearest footprint within
        /// the maximum distance. Kept to score against.
        case naive
    }

    /// Candidate buildings lie at most this far from the address (metres).
    public var maxDistance: Double = LinkOptions.defaultMaxDistance
    public var strategy: Strategy = .flyr
    /// A footprint smaller than this, with a much larger building within `accessoryRadius`, is an
    /// accessory structure (garage, shed): one of the features the link model weighs.
    public var accessoryMaxArea: Double = 50
    public var accessoryRadius: Double = 20
    /// Snapshots: an address keeps its previous building unless the new one is better by more than
    /// this many metres (see StickyLinks).
    public var stickyMargin: Double = LinkOptions.defaultStickyMargin

    public static let defaultMaxDistance: Double = 40
    public static let defaultStickyMargin: Double = 2

    public init() {}
}
