/// What a building's source says it is (OSM's `building=*`, Overture's `class`), as far as the
/// townhouse splitter needs to know: a block of flats, or a building that is no home (a school, a
/// shop, a garage), is never cut into a row of houses, whatever its addresses. Anything else
/// (`yes`, `house`, `terrace`, `residential`, a value not listed, no value) says nothing.
public enum BuildingType: UInt8, Sendable, Hashable {
    case unknown
    case flats
    case notAHome

    private static let flatTags: Set<String> = ["apartments", "flats", "dormitory", "hotel"]
    private static let notAHomeTags: Set<String> = [
        "commercial", "office", "retail", "supermarket", "kiosk", "industrial", "warehouse", "manufacture",
        "school", "university", "college", "kindergarten", "education", "hospital", "medical", "public", "civic",
        "government", "church", "cathedral", "chapel", "mosque", "temple", "synagogue", "religious", "train_station",
        "transportation", "parking", "garage", "garages", "carport", "shed", "hangar", "barn", "stable", "greenhouse",
        "farm_auxiliary", "agricultural", "outbuilding", "service", "sports_hall", "stadium", "fire_station", "military",
        "entertainment", "toilets", "roof", "bunker",
    ]

    /// From the source's value, as written (case and spaces ignored). Read for every building: the
    /// value as it usually comes (lowercase, trimmed) is looked up without making another string.
    public init(tag: String?) {
        guard let tag else { self = .unknown; return }
        if let known = Self.lookUp(tag) { self = known; return }
        let plain = tag.utf8.allSatisfy { $0 != 0x20 && !(0x41...0x5A).contains($0) }
        self = plain ? .unknown : Self.lookUp(tag.trimmingSpaces().lowercased()) ?? .unknown
    }

    private static func lookUp(_ value: String) -> BuildingType? {
        flatTags.contains(value) ? .flats : notAHomeTags.contains(value) ? .notAHome : nil
    }
}

private extension String {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
