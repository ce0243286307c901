/// The canonical building fields.
public enum BuildingField: String, CaseIterable, Sendable, Codable {
    case id
    case height
    case levels
}

/// An input building that was read and accepted. Its footprint is kept apart, with every other
/// building's (`FootprintStore`; a run's `footprint(ofBuilding:)`).
///
/// Stored in 32 bytes, not 80 (a run holds every building): the height's nil is a NaN, the
/// levels' nil is `Int32.min`, and a levels count beyond 32 bits is no count (nil).
public struct Building: Sendable, Hashable {
    public var id: String
    private var storedHeight: Double
    private var storedLevels: Int32
    /// 1-based ordinal of the feature in its layer.
    @Int32Backed public var sourceRow: Int

    public init(id: String, height: Double?, levels: Int?, sourceRow: Int) {
        self.id = id
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
        a.id == b.id && a.height == b.height && a.levels == b.levels && a.sourceRow == b.sourceRow
    }

    public func hash(into h: inout Hasher) {
        h.combine(id)
        h.combine(height)
        h.combine(levels)
        h.combine(sourceRow)
    }
}
