import Foundation

/// One row of a links table; only these columns are read, found by header name.
public struct LinkRecord: Codable, Sendable, Equatable {
    public var addressId: String
    /// nil when the row leaves the address unlinked (empty building_id).
    public var buildingId: String?
    /// nil when the column is missing or the value is not a number.
    public var confidence: Double?
    public var unitId: String?

    public init(addressId: String, buildingId: String?, confidence: Double?, unitId: String? = nil) {
        self.addressId = addressId
        self.buildingId = buildingId
        self.confidence = confidence
        self.unitId = unitId
    }
}

public func loadLinks(from url: URL) throws -> [LinkRecord] {
    try parseLinks(csv: Data(contentsOf: url), source: url.lastPathComponent)
}

public func parseLinks(csv: Data, source: String = "links.csv") throws -> [LinkRecord] {
    var header: CSVHeader?
    var columns: [Int?] = []
    var links: [LinkRecord] = []
    try CSVParser.forEachRow(in: csv) { row in
        guard header != nil else {
            let h = CSVHeader(row)
            header = h
            columns = [try h.require("address_id", in: source), try h.require("building_id", in: source),
                       h.index("confidence"), h.index("unit_id")]
            return
        }
        let id = row.field(columns[0]).trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty else { return }
        let building = row.field(columns[1]).trimmingCharacters(in: .whitespaces)
        let unit = columns[3] == nil ? nil : row.field(columns[3])
        links.append(LinkRecord(
            addressId: id, buildingId: building.isEmpty ? nil : building,
            confidence: Double(row.field(columns[2]).trimmingCharacters(in: .whitespaces)), unitId: unit))
    }
    guard header != nil else { throw SyntheticCityError.badInput("\(source): empty file") }
    return links
}

/// Address ids from an addresses GeoJSON (properties.id of every feature).
public func loadAddressIds(from url: URL) throws -> Set<String> {
    struct Collection: Decodable { var features: [Feature] }
    struct Feature: Decodable { var properties: Properties }
    struct Properties: Decodable { var id: String }
    let collection = try JSONDecoder().decode(Collection.self, from: Data(contentsOf: url))
    return Set(collection.features.map(\.properties.id))
}
