/// What goes on a parcel, in parcel-local metres: a runs along the street from the
/// parcel's left edge, v runs away from the kerb line (v = 0 is the street edge).
struct ParcelPlan {
    var kind: ParcelKind
    var width: Double
    /// Addressed building (if any) first, so a capped final parcel keeps it.
    var buildings: [PlannedBuilding] = []
    var addresses: [PlannedAddress] = []
}

public enum ParcelKind: String, CaseIterable, Codable, Sendable {
    case house
    case townhouseRow = "townhouse_row"
    case apartment
    case unaddressed
    case vacantLot = "vacant_lot"
    // Hard profile only.
    case houseGarageFront = "house_garage_front"
    case duplex
    case corner
    case frontRear = "front_rear"
    case multiNumber = "multi_number"
    case twoLot = "two_lot"
    case vacantBesideBuilding = "vacant_beside_building"
    /// Dense profile only: one building whose 1,000–50,000 units share one point.
    case complex

    public static let defaultProfileCases: [ParcelKind] = [.house, .townhouseRow, .apartment, .unaddressed, .vacantLot]
    /// Listed by a hard city's city.json; spelled out so new kinds cannot change it.
    public static let hardProfileCases: [ParcelKind] = defaultProfileCases + [
        .houseGarageFront, .duplex, .corner, .frontRear, .multiNumber, .twoLot, .vacantBesideBuilding,
    ]
    public static let denseProfileCases: [ParcelKind] = defaultProfileCases + [.houseGarageFront, .complex]
}

struct PlannedBuilding {
    var kind: BuildingKind
    var ring: [Point]
    var height: Double
    var levels: Int
}

struct PlannedAddress {
    /// House number = first free number on this street side + 2 × offset.
    var numberOffset: Int
    var unit: String
    var point: Point
    var placement: Placement
    /// Index into ParcelPlan.buildings, nil for a vacant lot.
    var buildingSlot: Int?
    var truthKind: AddressTruthKind
    var unitIndex: Int? = nil
    var unitsInRow: Int? = nil
    /// Corner lots: the address is on the cross street (an avenue) and takes the
    /// number reserved for this corner there instead of one from `numberOffset`.
    var onCrossStreet = false
}

/// The part of an addressed building an address point is drawn against: for a
/// townhouse this is one unit's stretch, otherwise the whole front.
struct Facade {
    /// Ends of the front wall (or of the unit's share of it); both lie on a polygon edge.
    var wallStart: Point
    var wallEnd: Point
    /// A rectangle fully inside the footprint, in the building's own frame.
    var interior: Rect
    var frame: RigidTransform
    /// Along-street centre and width used for street-drift points.
    var stretchCentre: Double
    var stretchWidth: Double
}

enum Heights {
    /// Rounded to decimetres so the printed value is short and stable.
    static func round(_ h: Double) -> Double { (h * 10).rounded() / 10 }
}
