/// Inputs that fully determine a generated city.
public struct CityConfig: Sendable {
    public var buildings: Int
    public var seed: UInt64
    public var originLon: Double
    public var originLat: Double
    public var profile: CityProfile

    public init(buildings: Int, seed: UInt64, originLon: Double = 10.2, originLat: Double = 56.15,
                profile: CityProfile = .standard) {
        self.profile = profile
        self.buildings = buildings
        self.seed = seed
        self.originLon = originLon
        self.originLat = originLat
    }
}
