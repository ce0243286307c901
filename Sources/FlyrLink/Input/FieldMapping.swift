/// Which source column feeds each canonical field. Defaults recognise FLYR's names, Overture's
/// and OSM's (including `addr:*` keys inside GDAL's `other_tags`); any field can be overridden.
public struct FieldMapping: Sendable, Hashable, Codable {
    /// Canonical address field name → source field name.
    public var address: [String: String]
    /// Canonical building field name → source field name.
    public var building: [String: String]

    public init(address: [String: String] = [:], building: [String: String] = [:]) {
        self.address = address
        self.building = building
    }

    public static let defaultAddressCandidates: [AddressField: [String]] = [
        .id: ["id", "address_id", "gers_id"],
        .houseNumber: ["house_number", "housenumber", "number", "addr:housenumber"],
        .streetName: ["street_name", "street", "addr:street", "addr:place"],
        .unit: ["unit", "addr:unit", "addr:door"],
        .formatted: ["formatted", "address_text", "full_address", "addr:full"],
        .locality: ["locality", "postal_city", "city", "addr:city"],
        .region: ["region", "state", "addr:state", "addr:province"],
        .postalCode: ["postal_code", "postcode", "zip", "addr:postcode"],
    ]

    public static let defaultBuildingCandidates: [BuildingField: [String]] = [
        .id: ["id", "building_id", "gers_id"],
        .height: ["height", "height_m", "building:height"],
        .levels: ["levels", "num_floors", "building:levels"],
        .type: ["building", "building_type", "class"],
    ]

    /// Checks override keys name canonical fields.
    public func validate() throws(InputError) {
        let addressNames = Set(AddressField.allCases.map(\.rawValue))
        for key in address.keys.sorted() where !addressNames.contains(key) {
            throw InputError("unknown address field '\(key)' (known: \(AddressField.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let buildingNames = Set(BuildingField.allCases.map(\.rawValue))
        for key in building.keys.sorted() where !buildingNames.contains(key) {
            throw InputError("unknown building field '\(key)' (known: \(BuildingField.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
    }

    /// The candidate source names for each canonical field of a role, overrides first and alone.
    func candidates(for role: LayerRole) -> [(canonical: String, names: [String], overridden: Bool)] {
        switch role {
        case .addresses:
            return AddressField.allCases.map { f in
                if let o = address[f.rawValue] { return (f.rawValue, [o], true) }
                return (f.rawValue, FieldMapping.defaultAddressCandidates[f] ?? [], false)
            }
        case .buildings:
            return BuildingField.allCases.map { f in
                if let o = building[f.rawValue] { return (f.rawValue, [o], true) }
                return (f.rawValue, FieldMapping.defaultBuildingCandidates[f] ?? [], false)
            }
        case .territory:
            return []
        }
    }
}

/// What a source is read as.
public enum LayerRole: String, Sendable, Codable {
    case buildings
    case addresses
    case territory
}

/// A problem with an input as a whole: the run stops with this one line.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// Any password in `message` (a connection string as given) is masked.
    public init(_ message: String) { self.message = ConnectionSecrets.masked(message) }
    public var description: String { message }
}

/// Where one candidate name of a field is found in a layer: a column, or a key inside `other_tags`.
enum FieldSource: Equatable {
    case column(Int)
    case tag(String)
}

extension FieldMapping {
    /// A field's candidate names resolved against a layer's columns (`lowercased`: the column
    /// names lowercased; a name matches case-insensitively), or as `other_tags` keys when the layer
    /// has that column; each with the name the report gives it. Shared by the GDAL and FlatGeobuf readers.
    static func sources(of names: [String], columns: [String], lowercased: [String], hasTags: Bool) -> [(source: FieldSource, label: String)] {
        names.compactMap { name in
            if let i = lowercased.firstIndex(of: name.lowercased()) { return (.column(i), columns[i]) }
            return hasTags ? (.tag(name), "other_tags[\(name)]") : nil
        }
    }

    /// Of a field's lookups, the one that supplied its value most often (ties to the earlier), by
    /// how often each did; nil when none did. The report names it.
    static func mostUsed(_ hits: [Int]) -> Int? {
        guard let best = hits.indices.max(by: { hits[$0] < hits[$1] || (hits[$0] == hits[$1] && $0 > $1) }), hits[best] > 0 else { return nil }
        return best
    }
}
