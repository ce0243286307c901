/// Human-looking, unique street names: "Birch Street", "Old Birch Street", ...
enum StreetNames {
    static let stems = [
        "Birch", "Oak", "Maple", "Elm", "Ash", "Beech", "Cedar", "Alder", "Willow", "Poplar",
        "Linden", "Hazel", "Rowan", "Hawthorn", "Juniper", "Larch", "Pine", "Spruce", "Holly", "Yew",
        "Chestnut", "Walnut", "Cherry", "Apple", "Pear", "Plum", "Elder", "Aspen", "Hornbeam", "Sycamore",
        "Meadow", "Brook", "Mill", "Church", "Harbour", "Station", "Market", "Bridge", "School", "Garden",
        "Park", "Field", "Hill", "Lake", "River", "Forest", "Heath", "Orchard",
    ]
    static let modifiers = ["", "Old ", "New ", "Upper ", "Lower ", "Little ", "Great ", "North ", "South ", "East ", "West "]

    static func name(index: Int, suffix: String) -> String {
        let stem = stems[index % stems.count]
        let round = index / stems.count
        let modifier = modifiers[round % modifiers.count]
        let repeatNumber = round / modifiers.count
        let base = modifier + stem + " " + suffix
        // Only cities wider than ~500 blocks need this; it keeps names unique.
        return repeatNumber == 0 ? base : base + " " + String(repeatNumber + 1)
    }

    static func eastWest(_ k: Int) -> String { name(index: k, suffix: "Street") }
    static func northSouth(_ j: Int) -> String { name(index: j, suffix: "Avenue") }

    /// Dense profile: 50 street and 50 avenue names used over and over, as a real city
    /// reuses names in other districts (postal code and locality tell them apart).
    static let reusedPerDirection = 50

    static func eastWest(_ k: Int, profile: CityProfile) -> String {
        eastWest(profile == .dense ? k % reusedPerDirection : k)
    }

    static func northSouth(_ j: Int, profile: CityProfile) -> String {
        northSouth(profile == .dense ? j % reusedPerDirection : j)
    }
}

/// Postal codes and localities from position: 4×4-block postal districts inside
/// 12×12-block localities, cached so each string is built once.
struct AddressRegions {
    static let localities = [
        "Aarby", "Birkely", "Dalum", "Egholm", "Fjordby", "Granlund", "Havdrup", "Islev",
        "Kirkeby", "Lindholm", "Mosedal", "Norrby", "Overby", "Rosenlund", "Skovby", "Vesterby",
    ]
    private var postalCache: [Int: String] = [:]

    mutating func postalCode(at p: Point) -> String {
        let (j, k) = Self.block(of: p)
        let key = Self.floorDiv(k, 4) &* 100_003 &+ Self.floorDiv(j, 4)
        if let cached = postalCache[key] { return cached }
        let district = ((Self.floorDiv(k, 4) &* 37 &+ Self.floorDiv(j, 4)) % 8_000 + 8_000) % 8_000
        let code = String(1_000 + district)
        postalCache[key] = code
        return code
    }

    func locality(at p: Point) -> String {
        let (j, k) = Self.block(of: p)
        let index = Self.floorDiv(k, 12) &* 5 &+ Self.floorDiv(j, 12)
        return Self.localities[((index % Self.localities.count) + Self.localities.count) % Self.localities.count]
    }

    private static func block(of p: Point) -> (Int, Int) {
        (Int((p.x / StreetGrid.pitch).rounded(.down)), Int((p.y / StreetGrid.pitch).rounded(.down)))
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
