/// Both layers' geometry in the run's metric frame: what the index and the candidate search read.
package struct MetricLayers {
    package var footprints: FootprintStore
    package var points: [Point2]
}

/// What the frame stage keeps for the assemble: the building rows (still compressed; the match and the
/// split read them), both layers' lon/lat geometry, and its account of what it took out.
package struct FramedRecords {
    package var buildingRows: CompressedRows<Building>
    /// Lon/lat footprints and points for the outputs (empty when nothing writes them).
    package var footprints: FootprintStore
    package var points: [Point2]
    package var account: FrameAccount
}

/// What the frame stage took out of the layers, for the report's counts.
package struct FrameAccount {
    /// The ingest's building rejects and the frame's (unusable footprints), in row order.
    package var buildingRejects: [Reject]
    package var repaired = 0
    var outsideBuildings = 0
    var outsideAddresses = 0
}

/// The frame stage's three values, each for the stage that frees it: the metric layers for the
/// index, the address rows for the match, the records for the assemble.
package typealias FramedLayers = (metric: MetricLayers, addressRows: CompressedRows<AddressPoint>, records: FramedRecords)

extension LinkPipeline {
    /// frame: the footprints and points projected into `frame` (in place when nothing writes them
    /// in lon/lat), invalid footprints repaired or rejected, and what lies outside the territory dropped.
    package func frameStage(_ ingested: consuming IngestedLayers, frame: LocalMetricFrame, _ clock: Clock, _ pool: WorkerPool) -> FramedLayers {
        let running = start(.frame, clock, "metric frame")
        var lonLat = ingested.footprints, addressLonLat = ingested.points
        let buildings = ingested.buildingRows, addresses = ingested.addressRows, territory = ingested.sources.territory
        var account = FrameAccount(buildingRejects: ingested.sources.buildings.rejects)
        _ = consume ingested  // (its arrays are these variables' alone: moved in place, or freed when replaced)
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
                account.repaired += 1
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
            let inside = TerritoryFilter(area: frame.toMetric(territory.footprint))
            let buildingIn = inside.intersecting(metric, pool: pool)
            for i in keep.indices where keep[i] && !buildingIn[i] { keep[i] = false; account.outsideBuildings += 1 }
            let addressIn = inside.covering(addressPoints, pool: pool)
            for i in keepAddress.indices where !addressIn[i] { keepAddress[i] = false; account.outsideAddresses += 1 }
        }
        // (Of the compressed rows, only those named in a reject are unpacked.)
        if keep.contains(false) {
            for ((_, reason), row) in zip(unusable, buildings.rows(at: unusable.map(\.building), pool: pool)) {
                account.buildingRejects.append(Reject(layer: "buildings", sourceRow: row.sourceRow, id: row.id, reason: reason))
            }
            buildings.keep(keep)
            let kept = keep.indices.compactMap { keep[$0] ? Int32($0) : nil }
            metric = FootprintStore(metric, order: kept, pool: pool)
            if writesRecords { lonLat = FootprintStore(lonLat, order: kept, replacing: repairedLonLat, pool: pool) }
        } else if !repairedLonLat.isEmpty {
            lonLat = FootprintStore(lonLat, order: nil, replacing: repairedLonLat, pool: pool)
        }
        if keepAddress.contains(false) {
            addresses.keep(keepAddress)
            addressPoints = zip(addressPoints, keepAddress).filter(\.1).map(\.0)
            if writesRecords { addressLonLat = zip(addressLonLat, keepAddress).filter(\.1).map(\.0) }
        }
        account.buildingRejects.sort { $0.sourceRow < $1.sourceRow }
        let records = FramedRecords(buildingRows: buildings, footprints: lonLat, points: addressLonLat, account: account)
        return running.finish((MetricLayers(footprints: metric, points: addressPoints), addresses, records), "frame \(frame.projString)")
    }
}
