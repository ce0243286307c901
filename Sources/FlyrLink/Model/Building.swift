/// The canonical building fields.
public enum BuildingField: String, CaseIterable, Sendable, Codable {
    case id
    case height
    case levels
}

/// An input building footprint that was read and accepted, in EPSG:4326.
public struct Building: Sendable, Hashable {
    public var id: String
    public var height: Double?
    public var levels: Int?
    public var sourceRow: Int
    public var footprint: Footprint

    public init(id: String, height: Double?, levels: Int?, sourceRow: Int, footprint: Footprint) {
        self.id = id
        self.height = height
        self.levels = levels
        self.sourceRow = sourceRow
        self.footprint = footprint
    }
}
