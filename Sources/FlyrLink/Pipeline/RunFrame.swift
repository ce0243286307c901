extension LinkPipeline {
    /// The run's metric frame: centred on the territory, or on both layers' extents.
    package static func frame(_ territory: Territory?, _ extents: (addresses: BBox, buildings: BBox)) -> LocalMetricFrame {
        frame(territoryBox: territory?.footprint.bbox, extents)
    }

    package static func frame(territoryBox: BBox?, _ extents: (addresses: BBox, buildings: BBox)) -> LocalMetricFrame {
        var union = extents.addresses
        union.extend(extents.buildings)
        return LocalMetricFrame.centred(on: territoryBox ?? union)
    }

    /// The box of the addresses and that of the footprints, in stretches on the workers (a box of
    /// boxes is the same in any order).
    package static func extents(_ addresses: [Point2], _ footprints: FootprintStore, pool: WorkerPool) -> (addresses: BBox, buildings: BBox) {
        let stretch = 65_536
        let parts = pool.map((max(addresses.count, footprints.count) + stretch - 1) / stretch, chunkSize: 1) { _, c in
            var a = BBox.empty, b = BBox.empty
            let part = c * stretch..<(c + 1) * stretch
            for i in part.clamped(to: addresses.indices) { a.extend(addresses[i]) }
            for i in part.clamped(to: footprints.indices) { b.extend(footprints[i].bbox) }
            return (a, b)
        }
        return parts.reduce(into: (BBox.empty, BBox.empty)) { $0.0.extend($1.0); $0.1.extend($1.1) }
    }
}
