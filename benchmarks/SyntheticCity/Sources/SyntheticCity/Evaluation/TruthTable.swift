import Foundation

/// One row of truth.csv.
public struct TruthRecord: Codable, Sendable, Equatable {
    public var addressId: String
    /// nil when the address has no true building (vacant lot).
    public var buildingId: String?
    public var kind: String
    public var placement: String
    public var unitIndex: Int?
    public var unitsInRow: Int?

    public init(addressId: String, buildingId: String?, kind: String, placement: String,
                unitIndex: Int? = nil, unitsInRow: Int? = nil) {
        self.addressId = addressId
        self.buildingId = buildingId
        self.kind = kind
        self.placement = placement
        self.unitIndex = unitIndex
        self.unitsInRow = unitsInRow
    }
}

/// Loads truth.csv into a dictionary keyed by address id.
public func loadTruth(from url: URL) throws -> [String: TruthRecord] {
    try parseTruth(csv: Data(contentsOf: url), source: url.lastPathComponent)
}

public func parseTruth(csv: Data, source: String = "truth.csv") throws -> [String: TruthRecord] {
    var header: CSVHeader?
    var columns: [Int?] = []
    var truth: [String: TruthRecord] = [:]
    try CSVParser.forEachRow(in: csv) { row in
        guard let h = header else {
            let h = CSVHeader(row)
            header = h
            columns = [try h.require("address_id", in: source), try h.require("building_id", in: source),
                       h.index("kind"), h.index("placement"), h.index("unit_index"), h.index("units_in_row")]
            return
        }
        _ = h
        let id = row.field(columns[0])
        guard !id.isEmpty else { return }
        guard truth[id] == nil else { throw SyntheticCityError.badInput("\(source): address \(id) appears twice") }
        let building = row.field(columns[1])
        truth[id] = TruthRecord(
            addressId: id, buildingId: building.isEmpty ? nil : building,
            kind: row.field(columns[2]), placement: row.field(columns[3]),
            unitIndex: Int(row.field(columns[4])), unitsInRow: Int(row.field(columns[5])))
    }
    guard header != nil else { throw SyntheticCityError.badInput("\(source): empty file") }
    return truth
}
