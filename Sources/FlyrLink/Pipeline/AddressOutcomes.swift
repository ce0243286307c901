/// Each address's index into a run's links, nil when it has none: 32-bit indices with -1 for none,
/// 4 bytes per address.
public struct LinkOfAddress: RandomAccessCollection, Sendable {
    private var indices32: [Int32]

    public init() { indices32 = [] }

    /// From each address's link index (-1: none).
    init(_ indices: [Int32]) { indices32 = indices }

    public var startIndex: Int { 0 }
    public var endIndex: Int { indices32.count }

    public subscript(address: Int) -> Int? {
        let i = indices32[address]
        return i < 0 ? nil : Int(i)
    }
}

/// For each address, why it is unlinked (nil when linked), one byte per address.
public struct UnlinkedReasons: RandomAccessCollection, Sendable {
    /// 0: linked; 1: unlinked with no reason given; 2 + k: the reason of `ordinal` k.
    private var codes: [UInt8]

    public init() { codes = [] }

    init(_ codes: [UInt8]) { self.codes = codes }

    static let linked: UInt8 = 0

    /// The code of an unlinked address, given the matcher's reason if it had one.
    static func code(_ reason: UnlinkedReason?) -> UInt8 {
        guard let reason else { return 1 }
        return UInt8(2 + reason.ordinal)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { codes.count }

    public subscript(address: Int) -> String? {
        switch codes[address] {
        case 0: nil
        case 1: "unlinked"
        case let c: UnlinkedReason(ordinal: Int(c) - 2).rawValue
        }
    }
}
