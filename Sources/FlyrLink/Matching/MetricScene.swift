/// Everything the matcher measures, in the run's local metric frame. Shared by all workers; a
/// class, so handing it to the per-address functions costs one reference, not a retain of every
/// array it holds. Read-only but for the house keys, given between the stages' parallel passes.
/// After the search a run parks the possible townhouse rows' footprints (`ParkedFootprints`) and
/// frees the whole scene with its search order; the split reads a scene of the rows linked twice.
final class MetricScene: @unchecked Sendable {
    let addressPoints: [Point2]
    /// `HouseNumber.keys` of the addresses: equal for the same house. Read by the decisions and
    /// the split, not by the candidate search: a run gives them to the restricted scene once the
    /// search is done (at 1M addresses 18 MB, beside the search's proposals and grid).
    private(set) var addressKeys: HouseKeys
    let footprints: FootprintStore
    /// The building of each footprint in a scene restricted to some (`restricted(to:)`); empty
    /// when the scene holds every building (footprint k is building k's).
    let buildings: [Int32]
    /// The order the candidate search visits the addresses in (`CandidateSearch.spatialOrder`):
    /// made with the scene, before the footprint grid exists beside it (its sort holds the points'
    /// keys twice); empty in a restricted scene.
    let searchOrder: [Int32]

    init(addressPoints: [Point2], addressKeys: HouseKeys = [], footprints: FootprintStore, pool: WorkerPool = WorkerPool(threads: 1)) {
        self.addressPoints = addressPoints
        self.addressKeys = addressKeys
        self.footprints = footprints
        buildings = []
        searchOrder = CandidateSearch.spatialOrder(addressPoints, pool: pool)
    }

    private init(addressPoints: [Point2], footprints: FootprintStore, buildings: [Int32]) {
        self.addressPoints = addressPoints
        addressKeys = []
        self.footprints = footprints
        self.buildings = buildings
        searchOrder = []
    }

    /// The scene of `buildings` alone (ascending; footprint k is building `buildings[k]`'s), with
    /// the same addresses and no house keys yet: what the split reads (the rows linked twice).
    func restricted(to buildings: [Int32], pool: WorkerPool) -> MetricScene {
        MetricScene(addressPoints: addressPoints, footprints: FootprintStore(footprints, order: buildings, pool: pool), buildings: buildings)
    }

    /// `restricted(to:)` of this scene, whole or itself restricted: `buildings` (ascending) are
    /// building indices, each of which this scene holds.
    func restricted(toBuildings wanted: [Int32], pool: WorkerPool) -> MetricScene {
        guard !buildings.isEmpty else { return restricted(to: wanted, pool: pool) }
        let positions = positions(of: wanted, in: buildings, holder: "the restricted scene").map { Int32($0) }
        return MetricScene(addressPoints: addressPoints, footprints: FootprintStore(footprints, order: positions, pool: pool), buildings: wanted)
    }

    /// `restricted(to:)`, from the footprints parked once the search was done (`ParkedFootprints`):
    /// `buildings` (ascending) are among the parked ones.
    static func restricted(to buildings: [Int32], of parked: ParkedFootprints, addressPoints: [Point2], pool: WorkerPool) -> MetricScene {
        MetricScene(addressPoints: addressPoints, footprints: parked.store(of: buildings, pool: pool), buildings: buildings)
    }

    /// The house keys given, once made (no worker reads the scene meanwhile).
    func give(addressKeys keys: HouseKeys) {
        addressKeys = keys
    }

    /// Smaller area first, then id: the deterministic choice among overlapping footprints. The
    /// areas are measured when asked (only points covered twice or more are sorted by them): an
    /// array of them was 8 MB at 1M buildings, beside the search's proposals.
    func smallerFirst(_ a: Int, _ b: Int) -> Bool {
        let areaA = footprints[a].area, areaB = footprints[b].area
        return areaA != areaB ? areaA < areaB : a < b  // buildings are in id order
    }
}

/// The grid over the footprints' boxes, built once: what the accessory classification and the
/// candidate search look things up in. Held apart from the scene so that a run drops it once the
/// searches are done (at 1M buildings 37 MB, beside the decisions' and the split's arrays).
final class FootprintIndex: Sendable {
    let grid: BoxGrid

    /// `reach`: how far the searches look around a point (the maximum link distance): the grid's
    /// cells are twice that, the side of an address's search box, so a search reads about four
    /// cells (measured at 1M buildings: 80 m and 160 m cells alike, 20 m slower). The boxes are
    /// kept only in the grid's entries, taken from the footprints' points as the grid asks (an
    /// array of them was 32 MB at 1M buildings, at the index stage's peak).
    init(_ footprints: FootprintStore, reach: Double = LinkOptions.defaultMaxDistance, pool: WorkerPool = WorkerPool(threads: 1)) {
        grid = BoxGrid(count: footprints.count, cellSize: max(2 * reach, 1), pool: pool) { footprints[$0].bbox }
    }
}
