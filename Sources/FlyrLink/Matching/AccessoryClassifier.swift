/// Marks accessory structures: small footprints (garages, sheds) with a much larger building close by.
/// Such a footprint may still take an address that lies inside it, but not one it is merely nearest to.
enum AccessoryClassifier {
    static func classify(_ scene: MetricScene, index: FootprintIndex, options: LinkOptions, pool: WorkerPool) -> [Bool] {
        // In the grid's order, so that each footprint's neighbours are those just measured (in
        // cache); a footprint outside the grid (no box) has no neighbours and is no accessory.
        let order = index.grid.spatialOrder()
        // Every footprint's area, for this pass only (its neighbours' are read again and again).
        let areas = pool.map(scene.footprints.count, chunkSize: 16_384) { _, i in scene.footprints[i].area }
        var accessory = [Bool](repeating: false, count: scene.footprints.count)
        accessory.withUnsafeMutableBufferPointer { out in
            let shared = UncheckedBox(out)
            pool.forEachRange(order.count, chunkSize: 2048) { stretch in
                for k in stretch {
                    let i = Int(order[k])
                    shared.value[i] = isAccessory(i, scene, areas: areas, index: index, options: options)
                }
            }
        }
        return accessory
    }

    private static func isAccessory(_ i: Int, _ scene: MetricScene, areas: [Double], index: FootprintIndex, options: LinkOptions) -> Bool {
        let area = areas[i]
        guard area < options.accessoryMaxArea else { return false }
        // Only whether one larger footprint is within the radius matters: no list, no order, and
        // no exact distance where the boxes alone are farther apart (with a margin for rounding).
        let boxReach = options.accessoryRadius * (1 + 1e-9) + 1e-9
        let larger = max(2 * area, options.accessoryMaxArea)
        // Areas read in place (an element of the array proper is a retain and release per read).
        return areas.withUnsafeBufferPointer { areas in
            let footprint = scene.footprints[i]
            let box = footprint.bbox
            var found = false
            index.grid.search(box.expanded(by: options.accessoryRadius)) { j, other in
                guard !found, j != i, box.distance(to: other) <= boxReach, areas[j] >= larger else { return }
                found = footprint.distance(to: scene.footprints[j]) <= options.accessoryRadius
            }
            return found
        }
    }
}
