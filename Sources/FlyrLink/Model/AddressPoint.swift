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
}

/// An input address that was read and accepted, located in EPSG:4326.
public struct AddressPoint: Sendable, Hashable {
    public var id: String
    /// Values of `AddressField.allCases` except `id`, in that order; nil where the source has none.
    public var values: [String?]
    /// 1-based ordinal of the feature in its layer.
    public var sourceRow: Int
    public var location: Point2

    public init(id: String, values: [String?], sourceRow: Int, location: Point2) {
        self.id = id
        self.values = values
        self.sourceRow = sourceRow
        self.location = location
    }

    public subscript(field: AddressField) -> String? {
        guard field != .id, let i = AddressField.allCases.firstIndex(of: field) else { return id }
        return values[i - 1]
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
