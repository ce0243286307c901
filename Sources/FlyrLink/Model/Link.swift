/// How an address found its building.
public enum MatchMethod: String, Sendable, Codable, CaseIterable {
    /// The footprint covers the point (boundary included).
    case exact = "gold_exact"
    /// The nearest suitable footprint within the maximum distance.
    case proximity = "gold_proximity"
}

/// One address linked to one building.
public struct Link: Sendable, Hashable {
    public var addressIndex: Int
    public var buildingIndex: Int
    public var method: MatchMethod
    public var confidence: Double
    public var distance: Double
    public var unitIndex: Int?
    public var isPrimary = false

    public init(addressIndex: Int, buildingIndex: Int, method: MatchMethod, confidence: Double, distance: Double) {
        self.addressIndex = addressIndex
        self.buildingIndex = buildingIndex
        self.method = method
        self.confidence = confidence
        self.distance = distance
    }
}
