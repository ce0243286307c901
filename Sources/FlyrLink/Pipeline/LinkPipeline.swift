import Foundation

/// read → ingest → frame → index → match → split → assemble: a run in named stages, reporting
/// progress as events.
public struct LinkPipeline {
    public var options: RunOptions
    public var observer: PipelineObserver?

    public init(options: RunOptions, observer: PipelineObserver? = nil) {
        self.options = options
        self.observer = observer
    }

    private final class Clock: @unchecked Sendable {
        var seconds: [String: Double] = [:]
        let start = Date()
    }

    /// `items`: how many things the stage went through (features read, addresses matched), for the progress rate.
    /// Every stage starts by handing back the pages the last one freed: the heap keeps them for
    /// reuse otherwise (HeapTrim), and the next stage's large arrays are mapped afresh beside them
    /// (at 1M buildings the peak was 24 MB higher, at no measurable cost in time).
    private func stage<T>(_ s: PipelineStage, _ clock: Clock, _ detail: String = "", items: (T) -> Int? = { _ in nil },
                          _ body: () throws -> (T, String)) rethrows -> T {
        HeapTrim.returnFreedMemory()
        observer?(.started(s, detail: detail))
        let t0 = Date()
        let (value, done) = try body()
        let dt = Date().timeIntervalSince(t0)
        clock.seconds[s.rawValue, default: 0] += dt
        observer?(.finished(s, detail: done, seconds: dt, items: items(value)))
        return value
    }

    /// A links-only run into a directory writes no geometry and no address fields: it keeps no
    /// lon/lat footprints of buildings or unit slices (at 10M buildings those are gigabytes), and
    /// of the address fields only those linking reads (`AddressField.linking`).
    private var writesRecords: Bool {
        options.only != .links || PostgresTarget.conninfo(from: options.outputDirectory) != nil
    }

    public func run() throws -> LinkRun {
        try options.validate()
        let clock = Clock()
        let pool = WorkerPool(threads: options.threads)

        // read and ingest; of the source tables only their summaries stay. The rows come out parked
        // (`ParkedRows`): the stages up to the search read only the footprints and points.
        var (buildingsIn, addressesIn, territory, buildingSource, addressSource) = try readAndIngest(clock, pool)
        // The report's input fingerprints, hashed on a spare thread while the stages run: the files
        // were just read (their pages are cached), and the stages leave a core idle now and then.
        let fingerprinting = DispatchGroup()
        let inputPaths = [buildingSource.spec.location, addressSource.spec.location].filter { path in
            (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
        }
        DispatchQueue.global(qos: .utility).async(group: fingerprinting) { for path in inputPaths { _ = SHA256.fingerprint(path) } }
        var lonLat = buildingsIn.footprints!
        buildingsIn.footprints = nil
        var addressLonLat = addressesIn.points!
        addressesIn.points = nil
        // (Each layer's box apart: layers that do not overlap are warned of.)
        let (addressBox, buildingBox) = Self.extents(addressLonLat, lonLat, pool: pool)
        var union = addressBox
        union.extend(buildingBox)
        let extent = territory?.footprint.bbox ?? union
        let frame = LocalMetricFrame.centred(on: extent)
        var buildingRejects = buildingsIn.rejects
        var repairedCount = 0
        var outsideBuildings = 0
        var outsideAddresses = 0
        let (buildingRows, buildingFootprints, footprints, addressRows, addressLocations, points) = stage(.frame, clock, "metric frame") {
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
                    repairedCount += 1
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
                for i in keep.indices where keep[i] && !buildingIn[i] { keep[i] = false; outsideBuildings += 1 }
                let addressIn = inside.covering(addressPoints, pool: pool)
                for i in keepAddress.indices where !addressIn[i] { keepAddress[i] = false; outsideAddresses += 1 }
            }
            // (Of the parked rows, only those named in a reject are unpacked.)
            let buildings = buildingsIn.rows
            if keep.contains(false) {
                for ((_, reason), row) in zip(unusable, buildings.rows(at: unusable.map(\.building), pool: pool)) {
                    buildingRejects.append(Reject(layer: "buildings", sourceRow: row.sourceRow, id: row.id, reason: reason))
                }
                buildings.keep(keep)
                let kept = keep.indices.compactMap { keep[$0] ? Int32($0) : nil }
                metric = FootprintStore(metric, order: kept, pool: pool)
                if writesRecords { lonLat = FootprintStore(lonLat, order: kept, replacing: repairedLonLat, pool: pool) }
            } else if !repairedLonLat.isEmpty {
                lonLat = FootprintStore(lonLat, order: nil, replacing: repairedLonLat, pool: pool)
            }
            let addresses = addressesIn.rows
            if keepAddress.contains(false) {
                addresses.keep(keepAddress)
                addressPoints = zip(addressPoints, keepAddress).filter(\.1).map(\.0)
                if writesRecords { addressLonLat = zip(addressLonLat, keepAddress).filter(\.1).map(\.0) }
            }
            buildingRejects.sort { $0.sourceRow < $1.sourceRow }
            return ((buildings, lonLat, metric, addresses, addressLonLat, addressPoints), "frame \(frame.projString)")
        }

        // index: the footprint grid and accessory structures.
        let (scene, index, accessory) = stage(.index, clock, items: { $0.0.footprints.count }) {
            let scene = MetricScene(addressPoints: points, footprints: footprints, pool: pool)
            let index = FootprintIndex(footprints, reach: options.link.maxDistance, pool: pool)
            let accessory = options.link.strategy == .flyr
                ? AccessoryClassifier.classify(scene, index: index, options: options.link, pool: pool)
                : [Bool](repeating: false, count: footprints.count)
            return ((scene, index, accessory), "\(footprints.count) footprints, \(accessory.filter { $0 }.count) accessory")
        }
        var footprintIndex: FootprintIndex? = consume index  // dropped once the candidate search is done
        // The footprints and points are the scene's from here on (freed with it, after the search).
        _ = consume footprints
        _ = consume points
        // Handed over, not copied: a reference left here would free it at the end of `run`. The
        // parked rows likewise, freed once unparked.
        var liveScene: MetricScene? = consume scene
        let buildingCount = buildingRows.count
        var parkedAddresses: ParkedRows<AddressPoint>? = consume addressRows
        var parkedBuildings: ParkedRows<Building>? = consume buildingRows

        // match: candidates → evidence → model → decision (`evidenceMatch`, Matching/), or the
        // naive baseline. The decisions are kept only as links and reasons (a verdict per
        // address, not a link: at 10M addresses the difference is most of a gigabyte). The
        // footprints are cut down as soon as the candidates are found (to those two addresses
        // see), and after the decisions to the possible rows (buildings linked twice or more),
        // which is all the split reads.
        var rowScene: MetricScene?
        var addresses: [AddressPoint] = []
        var (links, unlinked) = try stage(.match, clock, items: { $0.1.count }) {
            let previous = options.previousLinks.isEmpty ? nil
                : StickyLinks.previousIndices(addressIDs: parkedAddresses!.map(pool: pool) { $1.id },
                                              buildingIDs: parkedBuildings!.map(pool: pool) { $1.id }, links: options.previousLinks)
            let decided: (links: [Link], unlinked: [ProximityMatcher.UnlinkedReason?])
            var houseKeys: HouseKeys?
            if options.link.strategy == .naive {
                decided = naiveMatch(liveScene!, index: footprintIndex.take()!, accessory: accessory, previous: previous,
                                     addresses: &addresses, parkedAddresses: &parkedAddresses, pool: pool)
            } else {
                decided = try evidenceMatch(&liveScene, index: &footprintIndex, accessory: accessory, previous: previous,
                                            addresses: &addresses, houseKeys: &houseKeys, parkedAddresses: &parkedAddresses,
                                            parkedBuildings: parkedBuildings!, pool: pool)
            }
            // The split reads the footprints of the possible rows only (buildings linked twice or
            // more): the scene is freed (off this thread).
            rowScene = liveScene!.restricted(toBuildings: Self.linkedTwice(decided.links, buildingCount: buildingCount), pool: pool)
            BackgroundRelease.dropAndTrim(liveScene.take())
            rowScene!.give(addressKeys: houseKeys ?? HouseNumber.keys(addresses, pool: pool))
            return (decided, "\(decided.links.count) of \(decided.unlinked.count) linked")
        }

        // split: townhouse rows into unit slices, on the scene of the possible rows. The scene is
        // freed (off this thread) before the units are made; of the building rows, still parked,
        // only the planned rows' are unpacked (for the units' ids).
        let units: [UnitSlice] = stage(.split, clock) {
            var plans: [TownhouseSplitter.Plan?] = []
            if options.units == .split {
                let candidates = TownhouseSplitter.Candidates(links: links, scene: rowScene!, buildingCount: buildingCount, pool: pool)
                // The possible rows' levels (a block of flats is not cut), from their parked rows.
                let levels = parkedBuildings!.rows(at: rowScene!.buildings.map(Int.init), pool: pool).map(\.levels)
                plans = TownhouseSplitter.plans(scene: rowScene!, candidates: candidates, addresses: addresses, levels: levels,
                                                frame: frame, pool: pool, slicesInLonLat: writesRecords)
            }
            BackgroundRelease.dropAndTrim(rowScene.take())
            guard options.units == .split else { return ([], "off") }
            let planned = plans.compactMap { $0?.building }
            let buildingIDs = Dictionary(uniqueKeysWithValues: zip(planned, parkedBuildings!.rows(at: planned, pool: pool).map(\.id)))
            let slices = TownhouseSplitter.units(plans, links: &links, addresses: addresses, buildingIDs: buildingIDs, pool: pool)
            return (slices, "\(slices.count) unit slices")
        }

        // assemble: the links grouped by building, then the building rows unparked.
        var result: LinkRun = stage(.assemble, clock, items: { $0.links.count }) {
            let campaign = options.resolvedCampaignID
            var result = LinkRun(options: options, campaignID: campaign, frame: frame, addresses: addresses,
                                 addressLocations: addressLocations, buildings: [], buildingFootprints: buildingFootprints,
                                 links: [], linkOfAddress: LinkOfAddress(), unlinkedReason: UnlinkedReasons(), buildingLinkStart: [], units: units,
                                 rejects: addressesIn.rejects + buildingRejects,
                                 report: RunReport(campaignID: campaign, metricFrame: frame.projString, options: optionSummary(),
                                                   run: .init(threads: pool.threadCount, secondsByStage: [:], secondsTotal: 0)))
            LinkAssembly.assemble(&result, links: &links, unlinked: unlinked, buildingCount: buildingCount, pool: pool)
            result.buildings = parkedBuildings.take()!.restore(pool: pool)
            unlinked = []
            fingerprinting.wait()  // the reports below find the digests remembered
            result.report.inputs["buildings"] = inputReport(buildingSource, buildingsIn.crs, buildingsIn.crsAssumed, accepted: buildingCount,
                                                            rejected: buildingRejects.count, repaired: repairedCount, generated: buildingsIn.generatedIDs)
            result.report.inputs["addresses"] = inputReport(addressSource, addressesIn.crs, addressesIn.crsAssumed, accepted: addresses.count,
                                                            rejected: addressesIn.rejects.count, repaired: nil, generated: addressesIn.generatedIDs)
            result.report.territory = territory?.source
            outsideAddresses += addressSource.parquet?.rowsSkippedByBBox ?? 0
            outsideBuildings += buildingSource.parquet?.rowsSkippedByBBox ?? 0
            RunSummary.count(&result, accessory: accessory, repaired: repairedCount, outsideAddresses: outsideAddresses, outsideBuildings: outsideBuildings,
                             buildingRejects: buildingRejects.count, addressRejects: addressesIn.rejects.count)
            result.report.warnings = RunWarnings.collect(result, buildings: buildingSource, addresses: addressSource,
                                                         addressBox: addressBox, buildingBox: buildingBox)
            return (result, "\(result.links.count) links")
        }
        result.report.run.secondsByStage = clock.seconds
        result.report.run.secondsTotal = Date().timeIntervalSince(clock.start)
        return result
    }

    /// What the report keeps of a source table once its records are ingested.
    struct SourceSummary {
        var spec: SourceSpec
        var reader: String
        var layerName: String
        var resolvedFields: [String: String]
        var attributeFilter: String?
        var featuresRead: Int
        var parquet: ParquetReadReport?
        var fields: [SourceField]

        init(_ t: SourceTable) {
            spec = t.spec
            reader = t.reader
            layerName = t.layerName
            resolvedFields = t.resolvedFields
            attributeFilter = t.attributeFilter
            featuresRead = t.recordCount
            parquet = t.parquet
            fields = t.fields
        }
    }

    private func readAndIngest(_ clock: Clock, _ pool: WorkerPool) throws
        -> (Ingest.Result<Building>, Ingest.Result<AddressPoint>, Territory?, SourceSummary, SourceSummary) {
        // read: both layers at once (separate GDAL datasets), and the territory. Records go to
        // the ingest intakes in batches as they are read, so no layer is ever held as records.
        let buildingIntake = Ingest.BuildingIntake(heightScale: (options.heightUnit ?? .m).metres), addressIntake = Ingest.AddressIntake(keeping: writesRecords ? nil : AddressField.linking)
        let counter = observer.map { ReadProgress(observer: $0) }
        let (buildingTable, addressTable, territory) = try stage(.read, clock, "buildings and addresses",
                                                                 items: { $0.0.recordCount + $0.1.recordCount }) {
            let territory = try options.territory.map { spec throws(InputError) in try Territory.read(spec) }
            let tables = try readBoth(within: territory?.footprint.bbox, buildingIntake, addressIntake, progress: counter)
            return ((tables.0, tables.1, territory), "\(tables.0.recordCount) buildings, \(tables.1.recordCount) addresses")
        }
        // ingest: bring the accepted rows to lon/lat, name and order them.
        let (b, a) = try stage(.ingest, clock, items: { $0.0.rows.count + $0.1.rows.count }) {
            // One layer after the other, each on all the workers. The addresses' ids sorted first:
            // their keys are gone before the footprints are reordered.
            try addressIntake.sortIDs(addressTable, pool: pool)
            let b = try buildingIntake.finish(buildingTable, pool: pool)
            let a = addressIntake.finish(pool: pool)
            return ((b, a), "\(b.rows.count) buildings, \(a.rows.count) addresses accepted")
        }
        return (b, a, territory, SourceSummary(buildingTable), SourceSummary(addressTable))
    }

    /// Both layers at once, on two threads (separate GDAL datasets); GeoParquet pruned to `lonLatBox`.
    private func readBoth(within lonLatBox: BBox?, _ buildings: Ingest.BuildingIntake,
                          _ addresses: Ingest.AddressIntake, progress: ReadProgress?) throws -> (SourceTable, SourceTable) {
        let fields = options.fields, parquet = options.parquetReader
        return try Concurrently.both({ () throws(InputError) in
            try SourceReader.read(options.buildings, role: .buildings, mapping: fields, parquet: parquet, lonLatBox: lonLatBox,
                                  sink: RecordSink(expect: buildings.expect) { progress?.add(buildings: $0.count); buildings.consume(&$0) })
        }, { () throws(InputError) in
            try SourceReader.read(options.addresses, role: .addresses, mapping: fields, parquet: parquet, lonLatBox: lonLatBox,
                                  sink: RecordSink(expect: addresses.expect) { progress?.add(addresses: $0.count); addresses.consume(&$0) })
        })
    }

    /// The box of the addresses and that of the footprints, in stretches on the workers (a box of
    /// boxes is the same in any order).
    private static func extents(_ addresses: [Point2], _ footprints: FootprintStore, pool: WorkerPool) -> (addresses: BBox, buildings: BBox) {
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

    private func optionSummary() -> [String: String] {
        [
            "strategy": options.link.strategy.rawValue,
            "max_distance_m": OutputNumber.fixed(options.link.maxDistance, 3),
            "accessory_max_area_m2": OutputNumber.fixed(options.link.accessoryMaxArea, 3),
            "accessory_radius_m": OutputNumber.fixed(options.link.accessoryRadius, 3),
            "link_model": options.link.strategy == .naive ? "none" : options.linkModelPath ?? "compiled-in",
            "units": options.units.rawValue,
            "only": options.only.rawValue,
            "parquet_reader": options.parquetReader.rawValue,
            "height_unit": (options.heightUnit ?? .m).rawValue,
            "campaign_id": options.resolvedCampaignID,
        ]
    }

    private func inputReport(_ t: SourceSummary, _ crs: String, _ assumed: Bool, accepted: Int, rejected: Int, repaired: Int?, generated: Int) -> RunReport.Input {
        let path = t.spec.location
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let isFile = (attrs?[.type] as? FileAttributeType) == .typeRegular
        return RunReport.Input(source: PostgresTarget.redacted(t.spec.description), reader: t.reader, layer: t.layerName,
                               crs: CRSInfo.authorityName(crs) ?? (crs.count > 80 ? String(crs.prefix(80)) + "…" : crs),
                               crsAssumed: assumed, attributeFilter: t.attributeFilter, fields: t.resolvedFields,
                               featuresRead: t.featuresRead, accepted: accepted, rejected: rejected, repaired: repaired,
                               generatedIds: generated, bytes: isFile ? (attrs?[.size] as? Int) : nil,
                               sha256: isFile ? SHA256.fingerprint(path) : nil, parquet: t.parquet)
    }
}

/// Which reader a source goes to: GDAL for everything it opens; GeoParquet to GDAL's Parquet
/// driver when the linked GDAL has one, else (Debian's GDAL 3.6) to the project's own reader;
/// local GeoJSON and FlatGeobuf files to the project's streaming readers (GDAL's drivers are far slower).
enum SourceReader {
    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping,
                     parquet: RunOptions.ParquetReader = .auto, lonLatBox: BBox? = nil,
                     sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable {
        if spec.isGeoParquet {
            switch parquet {
            case .flyr:
                return try GeoParquetSourceReader.read(spec, role: role, mapping: mapping, lonLatBox: lonLatBox, sink: sink)
            case .gdal:
                guard GDALEnvironment.hasDriver("Parquet") else {
                    throw InputError("\(role.rawValue): --parquet-reader gdal, but this GDAL has no Parquet driver")
                }
            case .auto:
                if !GDALEnvironment.hasDriver("Parquet") {
                    return try GeoParquetSourceReader.read(spec, role: role, mapping: mapping, lonLatBox: lonLatBox, sink: sink)
                }
            }
        }
        if GeoJSONSourceReader.handles(spec) {
            return try GeoJSONSourceReader.read(spec, role: role, mapping: mapping, sink: sink)
        }
        if FlatGeobufSourceReader.handles(spec) {
            return try FlatGeobufSourceReader.read(spec, role: role, mapping: mapping, sink: sink)
        }
        return try GDALSourceReader.read(spec, role: role, mapping: mapping, sink: sink)
    }
}
