/// Marks accessory structures: small footprints (garages, sheds) with a much larger building close by.
/// Such a footprint may still take an address that lies inside it, but not one it is merely nearest to.
enum AccessoryClassifier {
    static func classify(_ scene: MetricScene, options: LinkOptions, pool: WorkerPool) -> [Bool] {
        pool.map(scene.footprints.count, chunkSize: 2048) { _, i in
            let area = scene.areas[i]
            guard area < options.accessoryMaxArea else { return false }
            let search = scene.boxes[i].expanded(by: options.accessoryRadius)
            var larger: [Int] = []
            scene.index.search(search) { j in
                if j != i && scene.areas[j] >= max(2 * area, options.accessoryMaxArea) { larger.append(j) }
            }
            return larger.sorted().contains { scene.footprints[i].distance(to: scene.footprints[$0]) <= options.accessoryRadius }
        }
    }
}
