/// What a generated building is; written as the `kind` property.
public enum BuildingKind: String, CaseIterable, Codable, Sendable {
    case house
    case garage
    case shed
    case townhouseRow = "townhouse_row"
    case apartment
    case unaddressed
    /// Hard profile: one building, two dwellings side by side, two house numbers.
    case duplex

    /// The kinds of the default profile (city.json of a default city lists only these).
    public static let defaultProfileCases: [BuildingKind] = [.house, .garage, .shed, .townhouseRow, .apartment, .unaddressed]
    /// Listed by a hard city's city.json; spelled out so new kinds cannot change it.
    public static let hardProfileCases: [BuildingKind] = defaultProfileCases + [.duplex]
    public static let denseProfileCases: [BuildingKind] = defaultProfileCases
}

/// The truth `kind` of an address: the kind of its true building, or a vacant lot.
public enum AddressTruthKind: String, CaseIterable, Codable, Sendable {
    case house
    case townhouseRow = "townhouse_row"
    case apartment
    case vacantLot = "vacant_lot"
    // Hard profile only (README: "The hard profile").
    case houseGarageFront = "house_garage_front"
    case duplex
    case corner
    case frontHouse = "front_house"
    case rearUnit = "rear_unit"
    case multiNumber = "multi_number"
    case twoLot = "two_lot"
    case vacantBesideBuilding = "vacant_beside_building"
    /// Dense profile: one of the 1,000–50,000 units of a complex, all at one point.
    case complex

    public static let defaultProfileCases: [AddressTruthKind] = [.house, .townhouseRow, .apartment, .vacantLot]
    /// Listed by a hard city's city.json; spelled out so new kinds cannot change it.
    public static let hardProfileCases: [AddressTruthKind] = defaultProfileCases + [
        .houseGarageFront, .duplex, .corner, .frontHouse, .rearUnit, .multiNumber, .twoLot, .vacantBesideBuilding,
    ]
    public static let denseProfileCases: [AddressTruthKind] = defaultProfileCases + [.houseGarageFront, .complex]

    /// The `kind` written on the true building (nil: no building).
    public var buildingKind: BuildingKind? {
        switch self {
        case .house, .houseGarageFront, .corner, .frontHouse, .rearUnit, .twoLot: return .house
        case .townhouseRow: return .townhouseRow
        case .apartment, .multiNumber, .complex: return .apartment
        case .duplex: return .duplex
        case .vacantLot, .vacantBesideBuilding: return nil
        }
    }
}

/// How the address point relates to its building (see README for the mix).
public enum Placement: String, CaseIterable, Codable, Sendable {
    case inside
    case outline
    case front
    case streetDrift = "street_drift"
    case lot
    // Hard profile only.
    /// 0.5–3 m from the street edge in front of the address's own unit / lot / garage, drifted along the street.
    case streetEdge = "street_edge"
    /// Between the street edge and the front of the garage that stands before the house.
    case garageFront = "garage_front"
    /// Between the cross street's edge and the side wall of a corner building.
    case sideStreet = "side_street"
    /// On the driveway strip beside the front house (rear units).
    case driveway
    /// Near the centre of the address's own lot (buildings drawn across two lots).
    case parcelCentroid = "parcel_centroid"

    public static let defaultProfileCases: [Placement] = [.inside, .outline, .front, .streetDrift, .lot]
    /// Listed by a hard city's city.json; spelled out so new placements cannot change it.
    public static let hardProfileCases: [Placement] = defaultProfileCases + [.streetEdge, .garageFront, .sideStreet, .driveway, .parcelCentroid]
    public static let denseProfileCases: [Placement] = defaultProfileCases + [.garageFront]
}

/// Which mix of parcels and placements `generate` draws.
public enum CityProfile: String, CaseIterable, Codable, Sendable {
    /// The original city; output is byte-identical to before profiles existed.
    case standard = "default"
    /// Adds garage-fronted houses, duplexes, corner lots, rear units, multi-number lots,
    /// buildings across two lots and vacant lots beside unaddressed buildings.
    case hard
    /// The shape of a measured dense city: ≥ 1.6 addresses per building, garages at the
    /// street, rows, apartment units sharing one point, complexes, street names reused.
    case dense

    /// The kinds a city.json lists (with zero counts too); the default city lists its own kinds only.
    var listedKinds: (buildings: [BuildingKind], addresses: [AddressTruthKind], placements: [Placement], parcels: [ParcelKind]) {
        switch self {
        case .standard:
            return (BuildingKind.defaultProfileCases, AddressTruthKind.defaultProfileCases,
                    Placement.defaultProfileCases, ParcelKind.defaultProfileCases)
        case .hard:
            return (BuildingKind.hardProfileCases, AddressTruthKind.hardProfileCases,
                    Placement.hardProfileCases, ParcelKind.hardProfileCases)
        case .dense:
            return (BuildingKind.denseProfileCases, AddressTruthKind.denseProfileCases,
                    Placement.denseProfileCases, ParcelKind.denseProfileCases)
        }
    }
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
