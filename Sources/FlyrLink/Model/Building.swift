/// The canonical building fields.
public enum BuildingField: String, CaseIterable, Sendable, Codable {
    case id
    case height
    case levels
}

/// An input building footprint that was read and accepted, in EPSG:4326.
///
/// Stored in 56 bytes, not 80 (a run holds every building): the height's nil is a NaN, the
/// levels' nil is `Int32.min`, and a levels count beyond 32 bits is no count (nil).
public struct Building: Sendable, Hashable {
    public var id: String
    public var footprint: Footprint
    private var storedHeight: Double
    private var storedLevels: Int32
    /// 1-based ordinal of the feature in its layer.
    @Int32Backed public var sourceRow: Int

    public init(id: String, height: Double?, levels: Int?, sourceRow: Int, footprint: Footprint) {
        self.id = id
        self.footprint = footprint
        storedHeight = height ?? .nan
        storedLevels = levels.flatMap { Int32(exactly: $0) } ?? .min
        self.sourceRow = sourceRow
    }

    public var height: Double? {
        get { storedHeight.isNaN ? nil : storedHeight }
        set { storedHeight = newValue ?? .nan }
    }

    public var levels: Int? {
        get { storedLevels == .min ? nil : Int(storedLevels) }
        set { storedLevels = newValue.flatMap { Int32(exactly: $0) } ?? .min }
    }

    // By value, not by the stored NaN (which is never equal to itself).
    public static func == (a: Building, b: Building) -> Bool {
        a.id == b.id && a.footprint == b.footprint && a.height == b.height && a.levels == b.levels && a.sourceRow == b.sourceRow
    }

    public func hash(into h: inout Hasher) {
        h.combine(id)
        h.combine(footprint)
        h.combine(height)
        h.combine(levels)
        h.combine(sourceRow)
    }
}
