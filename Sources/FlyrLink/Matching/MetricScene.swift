/// Everything the matcher measures, in the run's local metric frame, with the footprint index
/// built once. Read-only and shared by all workers.
struct MetricScene: Sendable {
    var addressPoints: [Point2]
    /// `HouseNumber.key` of each address.
    var addressKeys: [String?]
    var footprints: [Footprint]
    var areas: [Double]
    var boxes: [BBox]
    var buildingIDs: [String]
    var index: PackedRTree

    init(addressPoints: [Point2], addressKeys: [String?], footprints: [Footprint], buildingIDs: [String]) {
        self.addressPoints = addressPoints
        self.addressKeys = addressKeys
        self.footprints = footprints
        self.buildingIDs = buildingIDs
        areas = footprints.map(\.area)
        boxes = footprints.map(\.bbox)
        index = PackedRTree(boxes: boxes)
    }

    /// Smaller area first, then id: the deterministic choice among overlapping footprints.
    func smallerFirst(_ a: Int, _ b: Int) -> Bool {
        areas[a] != areas[b] ? areas[a] < areas[b] : Ingest.idOrder(buildingIDs[a], buildingIDs[b])
    }
}

/// GEOS objects for the footprints one worker is touching, made on demand in that worker's
/// context and dropped when its chunk is done (memory stays proportional to a chunk).
final class FootprintCache {
    let context: GEOSContext
    private let scene: MetricScene
    private var prepared: [Int: PreparedFootprint] = [:]

    init(context: GEOSContext, scene: MetricScene) {
        self.context = context
        self.scene = scene
    }

    func footprint(_ i: Int) throws(GEOSError) -> PreparedFootprint {
        if let p = prepared[i] { return p }
        let p = try PreparedFootprint(context.geometry(scene.footprints[i]))
        prepared[i] = p
        return p
    }
}
