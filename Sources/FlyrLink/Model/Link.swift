/// How an address found its building.
public enum MatchMethod: String, Sendable, Codable, CaseIterable {
    /// The footprint covers the point (boundary included).
    case exact = "gold_exact"
    /// The nearest suitable footprint within the maximum distance.
    case proximity = "gold_proximity"
}

/// One address linked to one building, in 32 bytes (a run holds one per address, twice while
/// ordering): indices are 32-bit (more than 2^31 rows traps, never wraps); accessors give `Int`s.
public struct Link: Sendable, Hashable {
    @Int32Backed public var addressIndex: Int
    @Int32Backed public var buildingIndex: Int
    public var confidence: Double
    public var distance: Double
    /// -1: none.
    private var storedUnit: Int32 = -1
    public var method: MatchMethod
    public var isPrimary = false

    public var unitIndex: Int? {
        get { storedUnit < 0 ? nil : Int(storedUnit) }
        set { storedUnit = newValue.map { Int32($0) } ?? -1 }
    }

    public init(addressIndex: Int, buildingIndex: Int, method: MatchMethod, confidence: Double, distance: Double) {
        self.addressIndex = addressIndex
        self.buildingIndex = buildingIndex
        self.method = method
        self.confidence = confidence
        self.distance = distance
    }
}
