/// Everything the matcher measures, in the run's local metric frame; a read-only class shared by all
/// workers (one reference, not a retain per array). `withAddressKeys(_:)` makes one with house keys.
package final class MetricScene: @unchecked Sendable {
    let addressPoints: [Point2]
    /// `HouseNumber.keys` of the addresses. Read by the decisions and the split, not the search, so
    /// only the restricted scene made after the search has them (a lower peak).
    let addressKeys: HouseKeys
    let footprints: FootprintStore
    /// The building of each footprint in a scene restricted to some (`restricted(to:)`); empty
    /// when the scene holds every building (footprint k is building k's).
    let buildings: [Int32]
    /// The order the candidate search visits the addresses (`CandidateSearch.spatialOrder`), made
    /// before the footprint grid exists (its sort holds the keys twice); empty in a restricted scene.
    let searchOrder: [Int32]

    init(addressPoints: [Point2], addressKeys: HouseKeys = [], footprints: FootprintStore, pool: WorkerPool = WorkerPool(threads: 1)) {
        self.addressPoints = addressPoints
        self.addressKeys = addressKeys
        self.footprints = footprints
        buildings = []
        searchOrder = CandidateSearch.spatialOrder(addressPoints, pool: pool)
    }

    private init(addressPoints: [Point2], addressKeys: HouseKeys = [], footprints: FootprintStore, buildings: [Int32], searchOrder: [Int32] = []) {
        self.addressPoints = addressPoints
        self.addressKeys = addressKeys
        self.footprints = footprints
        self.buildings = buildings
        self.searchOrder = searchOrder
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

    /// `restricted(to:)`, from the footprints compressed once the search was done (`CompressedFootprints`):
    /// `buildings` (ascending) are among the compressed ones.
    static func restricted(to buildings: [Int32], of compressed: CompressedFootprints, addressPoints: [Point2], pool: WorkerPool) -> MetricScene {
        MetricScene(addressPoints: addressPoints, footprints: compressed.store(of: buildings, pool: pool), buildings: buildings)
    }

    /// This scene with `keys` as its house keys (the arrays shared, not copied).
    func withAddressKeys(_ keys: HouseKeys) -> MetricScene {
        MetricScene(addressPoints: addressPoints, addressKeys: keys, footprints: footprints, buildings: buildings, searchOrder: searchOrder)
    }

    /// Smaller area first, then id: the deterministic choice among overlapping footprints. Areas are
    /// measured when asked (only points covered twice are sorted), not held beside the proposals.
    func smallerFirst(_ a: Int, _ b: Int) -> Bool {
        let areaA = footprints[a].area, areaB = footprints[b].area
        return areaA != areaB ? areaA < areaB : a < b  // buildings are in id order
    }
}

/// The grid over the footprints' boxes that accessory classification and candidate search read;
/// held apart from the scene so a run drops it once the searches are done.
final class FootprintIndex: Sendable {
    let grid: BoxGrid

    /// `reach`: the maximum link distance. Cells are twice that (a search reads about four cells);
    /// boxes live only in the grid's entries, taken from the footprints' points, never held twice.
    init(_ footprints: FootprintStore, reach: Double = LinkOptions.defaultMaxDistance, pool: WorkerPool = WorkerPool(threads: 1)) {
        grid = BoxGrid(count: footprints.count, cellSize: max(2 * reach, 1), pool: pool) { footprints[$0].bbox }
    }
}
