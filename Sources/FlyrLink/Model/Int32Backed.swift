/// An index or row number held in 32 bits and read as `Int`: a run holds millions of rows,
/// links and units, and half of an `Int` is enough for any count it can hold in memory.
@propertyWrapper
public struct Int32Backed: Sendable, Hashable {
    private var stored: Int32

    public init(wrappedValue: Int) { stored = Int32(wrappedValue) }

    public var wrappedValue: Int {
        get { Int(stored) }
        set { stored = Int32(newValue) }
    }
}

/// A row's 1-based number in its source, held in 32 bits without a sign: a source's rows are
/// numbered through the whole dataset (Overture's buildings are 2.5 billion rows), though one
/// process holds at most 2³¹ of them (a tile or a plan's share reads a part). The readers refuse
/// a source of more rows than this holds (`RowNumber.limit`).
@propertyWrapper
public struct RowNumber: Sendable, Hashable {
    /// The most rows a source may have.
    public static let limit = Int(UInt32.max)

    var stored: UInt32

    public init(wrappedValue: Int) { stored = UInt32(wrappedValue) }

    init(stored: UInt32) { self.stored = stored }

    public var wrappedValue: Int {
        get { Int(stored) }
        set { stored = UInt32(newValue) }
    }
}
