/// The scene the candidate search reads: the points and footprints in the frame, the footprint
/// grid, and which footprints are accessory structures.
struct IndexedScene {
    var scene: MetricScene?
    /// Dropped once the candidate search is done.
    var index: FootprintIndex?
    let accessory: [Bool]
    let buildingCount: Int
}

extension LinkPipeline {
    /// index: the footprint grid and accessory structures. The footprints and points are the
    /// scene's from here on (freed with it, after the search).
    func indexStage(_ layers: inout FramedLayers, _ clock: Clock, _ pool: WorkerPool) -> IndexedScene {
        let footprints = layers.footprints.take()!, points = layers.points.take()!
        return stage(.index, clock, items: { $0.buildingCount }) {
            let scene = MetricScene(addressPoints: points, footprints: footprints, pool: pool)
            let index = FootprintIndex(footprints, reach: options.link.maxDistance, pool: pool)
            let accessory = options.link.strategy == .flyr
                ? AccessoryClassifier.classify(scene, index: index, options: options.link, pool: pool)
                : [Bool](repeating: false, count: footprints.count)
            return (IndexedScene(scene: scene, index: index, accessory: accessory, buildingCount: footprints.count),
                    "\(footprints.count) footprints, \(accessory.filter { $0 }.count) accessory")
        }
    }
}
