/// The read layers in the run's metric frame: footprints repaired (or rejected), both layers cut
/// to the territory, the rows still parked. What the later stages take from here is handed over,
/// not copied (`take`), so that each is freed with the stage that last reads it.
struct FramedLayers {
    var buildingRows: ParkedRows<Building>?
    /// Lon/lat footprints and points for the outputs (empty when nothing writes them).
    var buildingFootprints: FootprintStore
    var addressLocations: [Point2]
    /// The same in the frame, for the index and the search.
    var footprints: FootprintStore?
    var points: [Point2]?
    var addressRows: ParkedRows<AddressPoint>?
    var buildingRejects: [Reject]
    var repaired = 0
    var outsideBuildings = 0
    var outsideAddresses = 0
    /// A tile run's (`options.tile`): what it kept, by id, and which addresses are its own.
    var tileScope: TileScope?
}

extension LinkPipeline {
    /// frame: the footprints and points projected into `frame` (in place when
    /// nothing writes them in lon/lat), invalid footprints repaired or rejected, and what lies
    /// outside the territory dropped.
    func frameStage(_ inputs: inout ReadLayers, frame: LocalMetricFrame, _ clock: Clock, _ pool: WorkerPool) -> FramedLayers {
        var lonLat = inputs.buildings.footprints.take()!
        var addressLonLat = inputs.addresses.points.take()!
        let territory = inputs.territory
        var layers = FramedLayers(buildingRows: nil, buildingFootprints: FootprintStore([]), addressLocations: [], buildingRejects: inputs.buildings.rejects)
        return stage(.frame, clock, "metric frame") {
            // The footprints in the frame: a copy when something writes them in lon/lat, else the
            // lon/lat store itself, moved in place.
            var metric = frame.project(lonLat, inPlace: !writesRecords, pool: pool)
            if !writesRecords { lonLat = FootprintStore([]) }
            var keep = [Bool](repeating: true, count: metric.count)
            var repaired: [Int: Footprint] = [:], repairedLonLat: [Int: Footprint] = [:]
            var unusable: [(building: Int, reason: String)] = []
            for (i, outcome) in FootprintRepair.run(metric, pool: pool) {
                switch outcome {
                case .valid: break
                case .repaired(let fixed, _):
                    repaired[i] = fixed
                    if writesRecords { repairedLonLat[i] = frame.toLonLat(fixed) }
                    layers.repaired += 1
                case .unusable(let reason):
                    keep[i] = false
                    unusable.append((i, reason))
                }
            }
            // (The territory is tested against the repaired footprints.)
            if !repaired.isEmpty { metric = FootprintStore(metric, order: nil, replacing: repaired, pool: pool) }
            // The points likewise: moved into the frame where they are when nothing writes them.
            var addressPoints = frame.project(&addressLonLat, inPlace: !writesRecords, pool: pool)
            var keepAddress = [Bool](repeating: true, count: addressPoints.count)
            if let territory {
                let area = frame.toMetric(territory.footprint)
                let inside = TerritoryFilter(area: area)
                let buildingIn = inside.intersecting(metric, pool: pool)
                for i in keep.indices where keep[i] && !buildingIn[i] { keep[i] = false; layers.outsideBuildings += 1 }
                let addressIn = inside.covering(addressPoints, pool: pool)
                for i in keepAddress.indices where !addressIn[i] { keepAddress[i] = false; layers.outsideAddresses += 1 }
            }
            // (Of the parked rows, only those named in a reject are unpacked.)
            let buildings = inputs.buildings.rows
            if keep.contains(false) {
                for ((_, reason), row) in zip(unusable, buildings.rows(at: unusable.map(\.building), pool: pool)) {
                    layers.buildingRejects.append(Reject(layer: "buildings", sourceRow: row.sourceRow, id: row.id, reason: reason))
                }
                buildings.keep(keep)
                let kept = keep.indices.compactMap { keep[$0] ? Int32($0) : nil }
                metric = FootprintStore(metric, order: kept, pool: pool)
                if writesRecords { lonLat = FootprintStore(lonLat, order: kept, replacing: repairedLonLat, pool: pool) }
            } else if !repairedLonLat.isEmpty {
                lonLat = FootprintStore(lonLat, order: nil, replacing: repairedLonLat, pool: pool)
            }
            let addresses = inputs.addresses.rows
            if keepAddress.contains(false) {
                addresses.keep(keepAddress)
                addressPoints = zip(addressPoints, keepAddress).filter(\.1).map(\.0)
                if writesRecords { addressLonLat = zip(addressLonLat, keepAddress).filter(\.1).map(\.0) }
            }
            if let task = options.tile {
                layers.tileScope = TileScope.cut(task, footprints: &metric, points: &addressPoints, lonLat: &lonLat,
                                                 addressLonLat: &addressLonLat, buildingRows: buildings, addressRows: addresses, pool: pool)
            }
            layers.buildingRejects.sort { $0.sourceRow < $1.sourceRow }
            layers.buildingRows = buildings
            layers.buildingFootprints = lonLat
            layers.footprints = metric
            layers.addressRows = addresses
            layers.addressLocations = addressLonLat
            layers.points = addressPoints
            return (layers, "frame \(frame.projString)")
        }
    }
}
