/// Counts and extent gathered while generating; the basis of city.json.
public struct CityStats: Codable, Sendable, Equatable {
    public var buildings = 0
    public var addresses = 0
    public var parcels = 0
    public var streets = 0
    public var buildingsByKind: [String: Int] = Dictionary(uniqueKeysWithValues: BuildingKind.defaultProfileCases.map { ($0.rawValue, 0) })
    public var addressesByKind: [String: Int] = Dictionary(uniqueKeysWithValues: AddressTruthKind.defaultProfileCases.map { ($0.rawValue, 0) })
    public var addressesByPlacement: [String: Int] = Dictionary(uniqueKeysWithValues: Placement.defaultProfileCases.map { ($0.rawValue, 0) })
    public var parcelsByKind: [String: Int] = Dictionary(uniqueKeysWithValues: ParcelKind.defaultProfileCases.map { ($0.rawValue, 0) })
    /// Extent in local metres: [minX, minY, maxX, maxY].
    public var bboxMetres: [Double] = [.infinity, .infinity, -.infinity, -.infinity]
    /// Dense profile only (nil elsewhere, so other city.json files are unchanged): distinct
    /// street names, and each complex's building and number of units.
    public var streetNames: Int?
    public var complexes: [ComplexRecord]?

    /// The default profile lists only its own kinds (keeps its city.json unchanged);
    /// the hard and dense profiles list each of their kinds and placements.
    init() {}

    init(profile: CityProfile) {
        let listed = profile.listedKinds
        for k in listed.buildings { buildingsByKind[k.rawValue, default: 0] += 0 }
        for k in listed.addresses { addressesByKind[k.rawValue, default: 0] += 0 }
        for k in listed.placements { addressesByPlacement[k.rawValue, default: 0] += 0 }
        for k in listed.parcels { parcelsByKind[k.rawValue, default: 0] += 0 }
        if profile == .dense { complexes = [] }
    }

    mutating func include(_ p: Point) {
        bboxMetres[0] = min(bboxMetres[0], p.x); bboxMetres[1] = min(bboxMetres[1], p.y)
        bboxMetres[2] = max(bboxMetres[2], p.x); bboxMetres[3] = max(bboxMetres[3], p.y)
    }
}

/// One complex of a dense city, as city.json lists it.
public struct ComplexRecord: Codable, Sendable, Equatable {
    public var buildingId: String
    public var units: Int
}
