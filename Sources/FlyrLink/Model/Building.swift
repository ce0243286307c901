/// The canonical building fields.
public enum BuildingField: String, CaseIterable, Sendable, Codable {
    case id
    case height
    case levels
    /// What the building is (`BuildingType`): read only to keep blocks of flats and non-homes uncut.
    case type
}

/// An accepted input building, 32 bytes as a run holds them all: id packed with its batch's, nil height
/// a NaN, nil levels `Int32.min`. Its footprint is kept apart (`FootprintStore`).
public struct Building: Sendable, Hashable {
    private var packedID: PackedFields
    private var storedLevels: Int32
    private var storedHeight: Double
    /// 1-based ordinal of the feature in its layer.
    @RowNumber public var sourceRow: Int
    /// Last: in the stride's padding.
    public var type: BuildingType

    public init(id: String, height: Double?, levels: Int?, type: BuildingType = .unknown, sourceRow: Int) {
        self.init(packedID: Self.pack(id), height: height, levels: levels, type: type, sourceRow: sourceRow)
    }

    /// `packedID`: a record of one value, the id (none when empty).
    init(packedID: PackedFields, height: Double?, levels: Int?, type: BuildingType = .unknown, sourceRow: Int) {
        self.packedID = packedID
        storedHeight = height ?? .nan
        storedLevels = levels.flatMap { Int32(exactly: $0) } ?? .min
        self.type = type
        self.sourceRow = sourceRow
    }

    private static func pack(_ id: String) -> PackedFields { PackedFields([id.isEmpty ? nil : id]) }

    /// Empty when the source had none (until one is made for it). Setting it packs the id anew,
    /// in a slab of its own: done only for the rows that had none.
    public var id: String {
        get { packedID[0] ?? "" }
        set { packedID = Self.pack(newValue) }
    }

    /// The id's UTF-8 bytes, read in place (empty when it has none).
    package func withIDUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        packedID.withNonNilUTF8(0, body)
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
        a.id == b.id && a.height == b.height && a.levels == b.levels && a.type == b.type && a.sourceRow == b.sourceRow
    }

    public func hash(into h: inout Hasher) {
        h.combine(id)
        h.combine(height)
        h.combine(levels)
        h.combine(type)
        h.combine(sourceRow)
    }
}

extension Building: CompressibleRow {
    package static var fixedWidth: Int { 17 }

    package func pack(fixed: UnsafeMutableRawPointer, records: inout [UInt8]) {
        fixed.storeBytes(of: _sourceRow.stored, toByteOffset: 0, as: UInt32.self)
        fixed.storeBytes(of: storedLevels, toByteOffset: 4, as: Int32.self)
        fixed.storeBytes(of: storedHeight.bitPattern, toByteOffset: 8, as: UInt64.self)
        fixed.storeBytes(of: type.rawValue, toByteOffset: 16, as: UInt8.self)
        packedID.appendRecord(to: &records)
    }

    package init(packedFields: PackedFields, fixed: UnsafeRawPointer) {
        packedID = packedFields
        _sourceRow = RowNumber(stored: fixed.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        storedLevels = fixed.loadUnaligned(fromByteOffset: 4, as: Int32.self)
        storedHeight = Double(bitPattern: fixed.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        type = BuildingType(rawValue: fixed.load(fromByteOffset: 16, as: UInt8.self)) ?? .unknown
    }
}
