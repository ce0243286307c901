/// The scene the candidate search reads (the metric layers, held once as the scene's) and the grid
/// over its footprints: both freed by the match once the search is done.
package struct IndexedScene {
    package var scene: MetricScene
    var index: FootprintIndex
}

extension LinkPipeline {
    /// index: the footprint grid, and which footprints are accessory structures (read by the match
    /// and the report).
    package func indexStage(_ metric: consuming MetricLayers, _ clock: Clock, _ pool: WorkerPool) -> (indexed: IndexedScene, accessory: [Bool]) {
        let running = start(.index, clock)
        let buildingCount = metric.footprints.count
        let scene = MetricScene(addressPoints: metric.points, footprints: metric.footprints, pool: pool)
        let index = FootprintIndex(metric.footprints, reach: options.link.maxDistance, pool: pool)
        let accessory = options.link.strategy == .flyr
            ? AccessoryClassifier.classify(scene, index: index, options: options.link, pool: pool)
            : [Bool](repeating: false, count: buildingCount)
        return running.finish((IndexedScene(scene: scene, index: index), accessory),
                              "\(buildingCount) footprints, \(accessory.filter { $0 }.count) accessory", items: buildingCount)
    }
}
