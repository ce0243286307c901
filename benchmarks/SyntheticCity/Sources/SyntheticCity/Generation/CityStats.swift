/// Counts and extent gathered while generating; the basis of city.json.
public struct CityStats: Codable, Sendable, Equatable {
    public var buildings = 0
    public var addresses = 0
    public var parcels = 0
    public var streets = 0
    public var buildingsByKind: [String: Int] = Dictionary(uniqueKeysWithValues: BuildingKind.allCases.map { ($0.rawValue, 0) })
    public var addressesByKind: [String: Int] = Dictionary(uniqueKeysWithValues: AddressTruthKind.allCases.map { ($0.rawValue, 0) })
    public var addressesByPlacement: [String: Int] = Dictionary(uniqueKeysWithValues: Placement.allCases.map { ($0.rawValue, 0) })
    public var parcelsByKind: [String: Int] = Dictionary(uniqueKeysWithValues: ParcelKind.allCases.map { ($0.rawValue, 0) })
    /// Extent in local metres: [minX, minY, maxX, maxY].
    public var bboxMetres: [Double] = [.infinity, .infinity, -.infinity, -.infinity]

    mutating func include(_ p: Point) {
        bboxMetres[0] = min(bboxMetres[0], p.x); bboxMetres[1] = min(bboxMetres[1], p.y)
        bboxMetres[2] = max(bboxMetres[2], p.x); bboxMetres[3] = max(bboxMetres[3], p.y)
    }
}
