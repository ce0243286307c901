/// The canonical address fields, in the order they are written out.
public enum AddressField: String, CaseIterable, Sendable, Codable {
    case id
    case houseNumber = "house_number"
    case streetName = "street_name"
    case unit
    case formatted
    case locality
    case region
    case postalCode = "postal_code"

    /// The fields linking itself reads: house keys, townhouse rows and the primary link. A run
    /// that writes no address fields keeps only these.
    static let linking: Set<AddressField> = [.houseNumber, .streetName]

    /// Where the field sits in an address's packed record (`allCases` order): a switch, because
    /// this is asked for every address several times, and `allCases` makes an array each time it
    /// is named.
    var position: Int {
        switch self {
        case .id: 0
        case .houseNumber: 1
        case .streetName: 2
        case .unit: 3
        case .formatted: 4
        case .locality: 5
        case .region: 6
        case .postalCode: 7
        }
    }
}

/// An accepted input address; its point is kept apart (`location(ofAddress:)`, EPSG:4326), so a
/// run writing no geometry moves points into its metric frame in place.
public struct AddressPoint: Sendable, Hashable {
    /// The id and other fields, in `AddressField` order, packed into bytes shared with the batch
    /// (`PackedFields`): no strings or arrays of their own per address.
    private var packed: PackedFields
    /// 1-based ordinal of the feature in its layer.
    @RowNumber public var sourceRow: Int

    public init(id: String, values: [String?], sourceRow: Int) {
        self.init(packed: Self.pack(id, values), sourceRow: sourceRow)
    }

    /// `packed`: the id, then the other fields (`AddressField.position`).
    init(packed: PackedFields, sourceRow: Int) {
        self.packed = packed
        self.sourceRow = sourceRow
    }

    /// (An empty id is stored as none, as the intake stores it: a row without values has no record.)
    private static func pack(_ id: String, _ values: [String?]) -> PackedFields {
        PackedFields([id.isEmpty ? nil : id] + values)
    }

    /// Empty when the source had none (until one is made for it, `Ingest.IDRegistry`). Setting
    /// it packs the row anew, in a slab of its own: done only for the rows that had none.
    public var id: String {
        get { packed[0] ?? "" }
        set { packed = Self.pack(newValue, values) }
    }

    /// Values of `AddressField.allCases` except `id`, in that order; nil where the source has none.
    public var values: [String?] {
        get { (1..<AddressField.allCases.count).map { packed[$0] } }
        set { packed = Self.pack(id, newValue) }
    }

    public subscript(field: AddressField) -> String? {
        field == .id ? id : packed[field.position]
    }

    /// A field's UTF-8 bytes read in place, for code that looks at a million of them (no String
    /// made); the id's are never nil (empty when it has none).
    func withUTF8<R>(_ field: AddressField, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        field == .id ? withIDUTF8(body) : packed.withUTF8(field.position, body)
    }

    /// The id's UTF-8 bytes, read in place (empty when it has none).
    package func withIDUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        packed.withNonNilUTF8(0, body)
    }

    /// Every field, the id first (`AddressField.position` order), its UTF-8 bytes read in place.
    func forEachFieldUTF8(_ body: (Int, UnsafeBufferPointer<UInt8>?) -> Void) {
        packed.forEachUTF8(AddressField.allCases.count) { k, bytes in
            k == 0 && bytes == nil ? body(0, UnsafeBufferPointer(start: nil, count: 0)) : body(k, bytes)
        }
    }

    public var houseNumber: String? { self[.houseNumber] }
    public var streetName: String? { self[.streetName] }

    /// "12 Main Street" or the source's formatted text.
    public var addressText: String? {
        if let f = self[.formatted], !f.isEmpty { return f }
        let parts = [houseNumber, streetName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

extension AddressPoint: CompressibleRow {
    package static var fixedWidth: Int { 4 }

    package func pack(fixed: UnsafeMutableRawPointer, records: inout [UInt8]) {
        fixed.storeBytes(of: _sourceRow.stored, as: UInt32.self)
        packed.appendRecord(to: &records)
    }

    package init(packedFields: PackedFields, fixed: UnsafeRawPointer) {
        self.init(packed: packedFields, sourceRow: Int(fixed.loadUnaligned(as: UInt32.self)))
    }
}
