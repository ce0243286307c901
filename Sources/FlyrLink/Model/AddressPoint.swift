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

    /// Where the field sits among the values other than `id` (`allCases` order, less one): a
    /// switch, because this is asked for every address several times, and `allCases` makes an
    /// array each time it is named.
    var valueIndex: Int? {
        switch self {
        case .id: nil
        case .houseNumber: 0
        case .streetName: 1
        case .unit: 2
        case .formatted: 3
        case .locality: 4
        case .region: 5
        case .postalCode: 6
        }
    }
}

/// An input address that was read and accepted, located in EPSG:4326.
public struct AddressPoint: Sendable, Hashable {
    public var id: String
    /// The fields other than `id`, packed into bytes shared with the other addresses of its batch
    /// (see `PackedFields`): an array of seven optional strings per address was 160 bytes of heap,
    /// and at 10M addresses the largest thing a run held.
    private var packed: PackedFields
    /// 1-based ordinal of the feature in its layer.
    @Int32Backed public var sourceRow: Int
    public var location: Point2

    public init(id: String, values: [String?], sourceRow: Int, location: Point2) {
        self.init(id: id, packed: PackedFields(values), sourceRow: sourceRow, location: location)
    }

    init(id: String, packed: PackedFields, sourceRow: Int, location: Point2) {
        self.id = id
        self.packed = packed
        self.sourceRow = sourceRow
        self.location = location
    }

    /// Values of `AddressField.allCases` except `id`, in that order; nil where the source has none.
    public var values: [String?] {
        get { (1..<AddressField.allCases.count).map { packed[$0 - 1] } }
        set { packed = PackedFields(newValue) }
    }

    public subscript(field: AddressField) -> String? {
        guard let i = field.valueIndex else { return id }
        return packed[i]
    }

    /// A field's UTF-8 bytes read in place, for code that looks at a million of them (no String made).
    func withUTF8<R>(_ field: AddressField, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let i = field.valueIndex else {
            var id = id
            return id.withUTF8 { body($0) }
        }
        return packed.withUTF8(i, body)
    }

    /// Every field but `id`, in `AddressField` order (`valueIndex`), its UTF-8 bytes read in place.
    func forEachValueUTF8(_ body: (Int, UnsafeBufferPointer<UInt8>?) -> Void) {
        packed.forEachUTF8(AddressField.allCases.count - 1, body)
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
