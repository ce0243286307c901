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

    /// The default profile lists only its own kinds (keeps its city.json unchanged);
    /// the hard profile lists every kind and placement.
    init() {}

    init(profile: CityProfile) {
        guard profile == .hard else { return }
        for k in BuildingKind.allCases { buildingsByKind[k.rawValue, default: 0] += 0 }
        for k in AddressTruthKind.allCases { addressesByKind[k.rawValue, default: 0] += 0 }
        for k in Placement.allCases { addressesByPlacement[k.rawValue, default: 0] += 0 }
        for k in ParcelKind.allCases { parcelsByKind[k.rawValue, default: 0] += 0 }
    }

    mutating func include(_ p: Point) {
        bboxMetres[0] = min(bboxMetres[0], p.x); bboxMetres[1] = min(bboxMetres[1], p.y)
        bboxMetres[2] = max(bboxMetres[2], p.x); bboxMetres[3] = max(bboxMetres[3], p.y)
    }
}
