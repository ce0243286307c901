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
    /// The fields other than `id`, packed into one byte array (see `PackedFields`): an array of
    /// seven optional strings per address was 160 bytes of heap, and at 10M addresses the
    /// largest thing a run held.
    private var packed: PackedFields
    /// 1-based ordinal of the feature in its layer.
    public var sourceRow: Int
    public var location: Point2

    public init(id: String, values: [String?], sourceRow: Int, location: Point2) {
        self.id = id
        self.packed = PackedFields(values)
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

    public var houseNumber: String? { self[.houseNumber] }
    public var streetName: String? { self[.streetName] }

    /// "12 Main Street" or the source's formatted text.
    public var addressText: String? {
        if let f = self[.formatted], !f.isEmpty { return f }
        let parts = [houseNumber, streetName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// Optional strings packed into one byte array: for each value in turn, its UTF-8 length plus one
/// as a LEB128 varint (0: nil), then its bytes. Trailing nils are left out, so a row without
/// values allocates nothing. One allocation per row instead of an array and a string each.
struct PackedFields: Sendable, Hashable {
    private var bytes: [UInt8]

    init(_ values: [String?]) {
        let last = values.lastIndex { $0 != nil } ?? -1
        guard last >= 0 else { bytes = []; return }
        var out: [UInt8] = []
        out.reserveCapacity(values[0...last].reduce(0) { $0 + 1 + ($1?.utf8.count ?? 0) })
        for v in values[0...last] {
            guard let v else { out.append(0); continue }
            var n = v.utf8.count + 1
            while n >= 0x80 { out.append(UInt8(n & 0x7F) | 0x80); n >>= 7 }
            out.append(UInt8(n))
            out += v.utf8
        }
        bytes = out
    }

    /// Value `k` (0-based); nil beyond the last stored value.
    subscript(k: Int) -> String? {
        withUTF8(k) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Value `k`'s UTF-8 bytes, read in place (no String made); nil beyond the last stored value.
    func withUTF8<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        bytes.withUnsafeBufferPointer { b -> R in
            var at = 0, field = 0
            while at < b.count {
                var n = 0, shift = 0
                while true {
                    let byte = b[at]
                    at += 1
                    n |= Int(byte & 0x7F) << shift
                    if byte < 0x80 { break }
                    shift += 7
                }
                if field == k { return body(n == 0 ? nil : UnsafeBufferPointer(rebasing: b[at..<(at + n - 1)])) }
                at += max(n - 1, 0)
                field += 1
            }
            return body(nil)
        }
    }
}
