import Foundation

/// One townhouse unit slice as the linker wrote it (units.geojson).
public struct UnitRecord: Codable, Sendable, Equatable {
    public var id: String
    public var buildingId: String
    public var addressId: String
    public var unitIndex: Int

    public init(id: String, buildingId: String, addressId: String, unitIndex: Int) {
        self.id = id
        self.buildingId = buildingId
        self.addressId = addressId
        self.unitIndex = unitIndex
    }
}

/// How well townhouse rows were cut: rows split into exactly their number of addresses, apartment
/// blocks and houses left whole, and each townhouse address in the slice of its true position.
public struct UnitScore: Codable, Sendable, Equatable {
    public var townhouseRows = 0
    public var rowsSplitExactly = 0
    public var rowsSplitIntoWrongCount = 0
    public var rowsNotSplit = 0
    public var apartmentBlocks = 0
    public var apartmentBlocksSplit = 0
    public var houses = 0
    public var housesSplit = 0
    public var townhouseAddresses = 0
    /// Townhouse addresses whose link's unit has the unit_index of their true position.
    public var addressesInTrueUnit = 0

    public var rowsSplitExactlyShare: Double { townhouseRows == 0 ? 0 : Double(rowsSplitExactly) / Double(townhouseRows) }
    public var nonRowsSplitShare: Double {
        let n = apartmentBlocks + houses
        return n == 0 ? 0 : Double(apartmentBlocksSplit + housesSplit) / Double(n)
    }
    public var addressesInTrueUnitShare: Double {
        townhouseAddresses == 0 ? 0 : Double(addressesInTrueUnit) / Double(townhouseAddresses)
    }
}

/// Reads the properties of units.geojson.
public func loadUnits(from url: URL) throws -> [UnitRecord] {
    let data = try Data(contentsOf: url)
    guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
          let features = root["features"] as? [[String: Any]] else {
        throw SyntheticCityError.badInput("\(url.path) is not a GeoJSON FeatureCollection")
    }
    return try features.map { f in
        let p = f["properties"] as? [String: Any] ?? [:]
        guard let id = p["id"] as? String, let b = p["building_id"] as? String, let a = p["address_id"] as? String,
              let k = p["unit_index"] as? Int else {
            throw SyntheticCityError.badInput("\(url.path): a unit without id, building_id, address_id or unit_index")
        }
        return UnitRecord(id: id, buildingId: b, addressId: a, unitIndex: k)
    }
}

public func evaluateUnits(units: [UnitRecord], links: [LinkRecord], truth: [String: TruthRecord]) -> UnitScore {
    var score = UnitScore()
    var slicesPerBuilding: [String: Int] = [:]
    for u in units { slicesPerBuilding[u.buildingId, default: 0] += 1 }
    let unitByID = Dictionary(units.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })

    var buildingKind: [String: String] = [:]
    var addressesPerRow: [String: Int] = [:]
    for t in truth.values {
        guard let b = t.buildingId else { continue }
        buildingKind[b] = t.kind
        if t.kind == "townhouse_row" { addressesPerRow[b, default: 0] += 1 }
    }
    for (b, kind) in buildingKind {
        let slices = slicesPerBuilding[b] ?? 0
        switch kind {
        case "townhouse_row":
            score.townhouseRows += 1
            if slices == 0 { score.rowsNotSplit += 1 }
            else if slices == addressesPerRow[b] { score.rowsSplitExactly += 1 }
            else { score.rowsSplitIntoWrongCount += 1 }
        // A dense city's complex is one apartment building too: its units must not split it.
        case "apartment", "complex":
            score.apartmentBlocks += 1
            if slices > 0 { score.apartmentBlocksSplit += 1 }
        // Hard-profile single dwellings count as houses too (one building, must stay whole);
        // duplex, multi_number and two_lot buildings are neither rows nor houses: not scored here.
        case "house", "house_garage_front", "corner", "front_house", "rear_unit":
            score.houses += 1
            if slices > 0 { score.housesSplit += 1 }
        default:
            break
        }
    }
    var unitOfAddress: [String: String] = [:]
    for l in links { if let u = l.unitId, !u.isEmpty, unitOfAddress[l.addressId] == nil { unitOfAddress[l.addressId] = u } }
    for t in truth.values where t.kind == "townhouse_row" {
        score.townhouseAddresses += 1
        guard let trueIndex = t.unitIndex, let uid = unitOfAddress[t.addressId], let unit = unitByID[uid] else { continue }
        if unit.buildingId == t.buildingId && unit.unitIndex == trueIndex { score.addressesInTrueUnit += 1 }
    }
    return score
}

extension UnitScore {
    public var text: String {
        func pct(_ x: Double) -> String { String(format: "%.4f", x) }
        return """
        townhouse units
          rows:                 \(townhouseRows) (split exactly: \(rowsSplitExactly) = \(pct(rowsSplitExactlyShare)), wrong count: \(rowsSplitIntoWrongCount), not split: \(rowsNotSplit))
          apartment blocks:     \(apartmentBlocks) (split: \(apartmentBlocksSplit))
          houses:               \(houses) (split: \(housesSplit))
          non-rows split share: \(pct(nonRowsSplitShare))
          townhouse addresses:  \(townhouseAddresses) (in their true unit: \(addressesInTrueUnit) = \(pct(addressesInTrueUnitShare)))

        """
    }
}
