/// Cuts townhouse rows into one slice per address (see the townhouse section of DESIGN.md).
enum TownhouseSplitter {
    static func split(scene: MetricScene, links: inout [Link], addresses: [AddressPoint], buildings: [Building],
                      frame: LocalMetricFrame, pool: WorkerPool) -> [UnitSlice] {
        []
    }
}
