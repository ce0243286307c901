/// What report.html is drawn from: a finished run (`LinkRun`) or an output directory as written
/// (`OutputDirectoryContents`, for `flyr-link report` and a distributed run's merge). The page is
/// made in a few passes over the addresses, the buildings and the units, each in the run's order
/// (`ReportModel`), so that what it holds is bounded by what it shows, not by the run's size.
/// Values are given as the output files hold them — coordinates to 7 decimals, confidence to 3,
/// distances to 2 (`ReportRounding`) — so a page redrawn from the directory is byte-identical to
/// the one the run wrote.
protocol ReportSource {
    var report: RunReport { get }
    var frame: LocalMetricFrame { get }
    /// Rejected input rows per "layer: reason".
    var rejectsByReason: [String: Int] { get }
    /// False when the output holds no geometry (`--only links`): no maps then.
    var hasGeometry: Bool { get }
    /// True when the source holds every row in memory (a run): the page may then keep each
    /// address's and building's point in the frame between its passes (16 bytes a row, beside
    /// the run's hundreds) rather than project them twice.
    var holdsRows: Bool { get }

    /// Every address, in the run's order (a links-only output: every linked address).
    func forEachAddress(_ body: (ReportAddress) throws -> Void) throws
    /// Every building, in the run's order (a links-only output: every linked building), and its
    /// footprint in EPSG:4326 as written, made only when asked for.
    func forEachBuilding(_ body: (ReportBuilding, () -> Footprint) throws -> Void) throws
    /// Every unit slice, in the run's order: its building's id, and its footprint as `forEachBuilding`'s.
    func forEachUnit(_ body: (_ building: String, () -> Footprint) throws -> Void) throws
}

/// An address as the page reads it.
struct ReportAddress {
    /// Its place in the run's order (a tie's last resort).
    var index: Int
    var id: String
    var houseNumber: String?
    /// In EPSG:4326, rounded as written; nil without geometry.
    var lonLat: Point2?
    var outcome: AddressOutcome
}

/// A building as the page reads it.
struct ReportBuilding {
    /// Its place in the run's order (a tie's last resort).
    var index: Int
    var id: String
    /// The footprint's box in EPSG:4326 (of the rounded coordinates); empty without geometry.
    var lonLatBox: BBox
    /// Its addresses (address_count).
    var addressCount: Int
}

/// An address's link, as the report reads it.
struct AddressOutcome: Equatable {
    /// The building's id; nil: unlinked.
    var building: String?
    var method: MatchMethod?
    var confidence: Double
    var distance: Double

    static let unlinked = AddressOutcome(building: nil, method: nil, confidence: 0, distance: 0)
}

/// The rounding the output files apply, applied to values taken from memory. `OutputNumber` writes
/// round(|v|·10^d) over 10^d; readers parse that decimal to the nearest double, which is what one
/// division by the exact power of ten gives.
package enum ReportRounding {
    @inline(__always)
    package static func round(_ v: Double, _ decimals: Int) -> Double {
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
    var holdsRows: Bool { true }

    func forEachAddress(_ body: (ReportAddress) throws -> Void) throws {
        for a in addresses.indices {
            try body(ReportAddress(index: a, id: addresses[a].id, houseNumber: addresses[a].houseNumber,
                                   lonLat: location(ofAddress: a).map(ReportRounding.lonLat), outcome: outcome(ofAddress: a)))
        }
    }

    /// Address `a`'s link as the files hold it.
    func outcome(ofAddress a: Int) -> AddressOutcome {
        guard let l = linkOfAddress[a] else { return .unlinked }
        let link = links[l]
        return AddressOutcome(building: buildings[link.buildingIndex].id, method: link.method,
                              confidence: ReportRounding.round(link.confidence, 3), distance: ReportRounding.round(link.distance, 2))
    }

    func forEachBuilding(_ body: (ReportBuilding, () -> Footprint) throws -> Void) throws {
        for b in buildings.indices {
            var box = BBox.empty
            if b < buildingFootprints.count {
                // Rounding is monotone: the box of the rounded points is the rounded box.
                box = buildingFootprints[b].bbox
                if !box.isEmpty {
                    box = BBox(minX: ReportRounding.round(box.minX, 7), minY: ReportRounding.round(box.minY, 7),
                               maxX: ReportRounding.round(box.maxX, 7), maxY: ReportRounding.round(box.maxY, 7))
                }
            }
            try body(ReportBuilding(index: b, id: buildings[b].id, lonLatBox: box, addressCount: linksOfBuilding(b).count)) {
                var f = footprint(ofBuilding: b)
                f.movePoints(ReportRounding.lonLat)
                return f
            }
        }
    }

    func forEachUnit(_ body: (_ building: String, () -> Footprint) throws -> Void) throws {
        for unit in units {
            try body(buildings[unit.buildingIndex].id) {
                var f = unit.footprint
                f.movePoints(ReportRounding.lonLat)
                return f
            }
        }
    }
}
