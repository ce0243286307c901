/// What report.html is drawn from: a finished run (`LinkRun`) or an output directory as written
/// (`OutputDirectoryContents`, for `flyr-link report`). Values are given as the output files hold
/// them — coordinates to 7 decimals, confidence to 3, distances to 2 (`ReportRounding`) — so a page
/// redrawn from the directory is byte-identical to the one the run wrote.
protocol ReportSource {
    var report: RunReport { get }
    var frame: LocalMetricFrame { get }
    /// Rejected input rows per "layer: reason".
    var rejectsByReason: [String: Int] { get }
    /// False when the output holds no geometry (`--only links`): no maps then.
    var hasGeometry: Bool { get }

    var addressCount: Int { get }
    func addressID(_ a: Int) -> String
    func houseNumber(_ a: Int) -> String?
    /// In EPSG:4326, rounded as written; nil without geometry.
    func addressLonLat(_ a: Int) -> Point2?
    func outcome(ofAddress a: Int) -> AddressOutcome

    var buildingCount: Int { get }
    func buildingID(_ b: Int) -> String
    /// The footprint's bounding box in EPSG:4326 (of the rounded coordinates); empty without geometry.
    func buildingLonLatBox(_ b: Int) -> BBox
    /// In EPSG:4326, rounded as written.
    func buildingFootprint(_ b: Int) -> Footprint

    var unitCount: Int { get }
    func unitBuilding(_ u: Int) -> Int
    func unitFootprint(_ u: Int) -> Footprint
}

/// An address's link, as the report reads it.
struct AddressOutcome: Equatable {
    /// nil: unlinked.
    var building: Int?
    var method: MatchMethod?
    var confidence: Double
    var distance: Double

    static let unlinked = AddressOutcome(building: nil, method: nil, confidence: 0, distance: 0)
}

/// The rounding the output files apply, applied to values taken from memory. `OutputNumber` writes
/// round(|v|·10^d) over 10^d; readers parse that decimal to the nearest double, which is what one
/// division by the exact power of ten gives.
enum ReportRounding {
    @inline(__always)
    static func round(_ v: Double, _ decimals: Int) -> Double {
        guard v.isFinite else { return v }
        let scale = GeoJSONScanner.exactPowerOfTen(decimals)
        let r = (abs(v) * scale).rounded() / scale
        return v < 0 ? -r : r
    }

    static func lonLat(_ p: Point2) -> Point2 { Point2(x: round(p.x, 7), y: round(p.y, 7)) }
}

/// A finished run, read in memory.
extension LinkRun: ReportSource {
    var rejectsByReason: [String: Int] {
        rejects.reduce(into: [:]) { $0["\($1.layer): \($1.reason)", default: 0] += 1 }
    }

    var hasGeometry: Bool { options.only == .all }

    var addressCount: Int { addresses.count }
    func addressID(_ a: Int) -> String { addresses[a].id }
    func houseNumber(_ a: Int) -> String? { addresses[a].houseNumber }
    func addressLonLat(_ a: Int) -> Point2? { location(ofAddress: a).map(ReportRounding.lonLat) }

    func outcome(ofAddress a: Int) -> AddressOutcome {
        guard let l = linkOfAddress[a] else { return .unlinked }
        let link = links[l]
        return AddressOutcome(building: link.buildingIndex, method: link.method,
                              confidence: ReportRounding.round(link.confidence, 3), distance: ReportRounding.round(link.distance, 2))
    }

    var buildingCount: Int { buildings.count }
    func buildingID(_ b: Int) -> String { buildings[b].id }

    func buildingLonLatBox(_ b: Int) -> BBox {
        guard b < buildingFootprints.count else { return .empty }
        // Rounding is monotone: the box of the rounded points is the rounded box.
        let box = buildingFootprints[b].bbox
        guard !box.isEmpty else { return box }
        return BBox(minX: ReportRounding.round(box.minX, 7), minY: ReportRounding.round(box.minY, 7),
                    maxX: ReportRounding.round(box.maxX, 7), maxY: ReportRounding.round(box.maxY, 7))
    }

    func buildingFootprint(_ b: Int) -> Footprint {
        var f = footprint(ofBuilding: b)
        f.movePoints(ReportRounding.lonLat)
        return f
    }

    var unitCount: Int { units.count }
    func unitBuilding(_ u: Int) -> Int { units[u].buildingIndex }
    func unitFootprint(_ u: Int) -> Footprint {
        var f = units[u].footprint
        f.movePoints(ReportRounding.lonLat)
        return f
    }
}
