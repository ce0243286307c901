/// Contents of city.json.
public struct CitySummary: Codable, Sendable, Equatable {
    public var seed: UInt64
    public var requestedBuildings: Int
    public var originLon: Double
    public var originLat: Double
    /// "hard" for the hard profile; absent (nil) for the default profile, so its city.json is unchanged.
    public var profile: String?
    public var counts: CityStats
    /// [minLon, minLat, maxLon, maxLat] over all vertices and address points.
    public var bbox: [Double]

    public init(config: CityConfig, stats: CityStats) {
        seed = config.seed
        requestedBuildings = config.buildings
        originLon = config.originLon
        originLat = config.originLat
        profile = config.profile == .standard ? nil : config.profile.rawValue
        counts = stats
        let projection = LocalProjection(originLon: config.originLon, originLat: config.originLat)
        let m = stats.bboxMetres
        bbox = m[0].isFinite
            ? [projection.lon(m[0]), projection.lat(m[1]), projection.lon(m[2]), projection.lat(m[3])]
                .map { ($0 * 1e8).rounded() / 1e8 }
            : []
        // Millimetres are plenty for a summary and keep city.json short.
        counts.bboxMetres = m[0].isFinite ? m.map { ($0 * 1000).rounded() / 1000 } : []
    }
}
