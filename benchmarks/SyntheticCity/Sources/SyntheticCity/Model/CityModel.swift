/// What a generated building is; written as the `kind` property.
public enum BuildingKind: String, CaseIterable, Codable, Sendable {
    case house
    case garage
    case shed
    case townhouseRow = "townhouse_row"
    case apartment
    case unaddressed
}

/// The truth `kind` of an address: the kind of its true building, or a vacant lot.
public enum AddressTruthKind: String, CaseIterable, Codable, Sendable {
    case house
    case townhouseRow = "townhouse_row"
    case apartment
    case vacantLot = "vacant_lot"
}

/// How the address point relates to its building (see README for the mix).
public enum Placement: String, CaseIterable, Codable, Sendable {
    case inside
    case outline
    case front
    case streetDrift = "street_drift"
    case lot
}

/// One building in local metres. `ring` is open (first vertex not repeated) and counter-clockwise.
public struct SyntheticBuilding: Sendable {
    public var index: Int
    public var kind: BuildingKind
    public var ring: [Point]
    public var height: Double
    public var levels: Int

    public var id: String { IdFormat.building(index) }
}

/// One address point in local metres together with its ground truth.
public struct SyntheticAddress: Sendable {
    public var index: Int
    public var houseNumber: Int
    public var streetName: String
    public var unit: String
    public var postalCode: String
    public var locality: String
    public var point: Point
    public var truth: AddressTruth

    public var id: String { IdFormat.address(index) }
}

public struct AddressTruth: Sendable {
    /// Index of the true building, nil for a vacant lot.
    public var buildingIndex: Int?
    public var kind: AddressTruthKind
    public var placement: Placement
    /// Townhouse only: 0-based position counted from the lowest house number.
    public var unitIndex: Int?
    public var unitsInRow: Int?
}

/// Id spelling shared by the writers and the tests: a letter and at least 7 digits.
public enum IdFormat {
    public static func building(_ index: Int) -> String { "b" + padded(index) }
    public static func address(_ index: Int) -> String { "a" + padded(index) }

    static func padded(_ n: Int) -> String {
        let digits = String(n)
        return digits.count >= 7 ? digits : String(repeating: "0", count: 7 - digits.count) + digits
    }
}
