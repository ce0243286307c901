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
