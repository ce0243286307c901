import Foundation

/// flyr-link's own FlatGeobuf reader: GDAL's driver builds an OGR feature and a WKB copy of every
/// geometry, which made reading the slowest part of a large run. This reader streams the file in
/// chunks, decodes each chunk's features on all cores straight into `SourceGeometry`, and keeps
/// only the columns the field mapping asks for. It gives the same records as GDAL (tests compare
/// them); a named layer, a path GDAL must resolve, or content GDAL reads in its own way (curves,
/// malformed rings, unusual dates, a non-standard index) goes to GDAL.
enum FlatGeobufSourceReader {
    static let name = "flyr-link FlatGeobuf reader"

    static func handles(_ spec: SourceSpec) -> Bool {
        spec.location.lowercased().hasSuffix(".fgb") && spec.layer == nil && !spec.location.hasPrefix("/vsi")
            && LocalSource.isRegularFile(spec.location)
    }

    /// `lonLatBox`: only the features whose boxes meet it, found by the file's spatial index (a
    /// tile of a distributed run); a file without one is read whole.
    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, lonLatBox: BBox? = nil,
                     sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable {
        do {
            return try readOwn(spec, role: role, mapping: mapping, lonLatBox: lonLatBox, sink: sink)
        } catch {
            switch error {
            case .needsGDAL:
                return try GDALSourceReader.read(spec, role: role, mapping: mapping, sink: sink)
            case .corrupt(let why):
                throw InputError("\(role.rawValue): \(spec.location) is not a readable FlatGeobuf file: \(why)")
            }
        }
    }

    /// As `read`, but reports what it could not read itself instead of handing it to GDAL.
    /// `chunkSize`: bytes read at a time (tests make it small to cross chunk boundaries often).
    static func readOwn(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, lonLatBox: BBox? = nil,
                        sink: RecordSink = RecordSink(), chunkSize: Int = 2 << 20) throws(FlatGeobufProblem) -> SourceTable {
        let file = try FlatGeobufFile(path: spec.location)
        let header = file.header
        guard header.geometryType < 8 else { throw .needsGDAL("geometry type \(header.geometryType)") }
        let fields = try FlatGeobufFieldPlan(header: header, role: role, mapping: mapping)
        let crs = try crsDefinition(header.crs, spec: spec)
        let plan = FlatGeobufFeatureDecoder.Plan(
            headerGeometryType: header.geometryType, geometry: FlatGeobufGeometry(hasZ: header.hasZ, hasM: header.hasM),
            properties: try FlatGeobufProperties(columns: header.columns, wanted: fields.wantedColumns),
            lookups: fields.lookups, tagsSlot: fields.tagsSlot, wantedCount: fields.wantedColumns.count)

        // One decoder per core (each feature is decoded on its own, so the count changes no record).
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let decoders = (0..<workers).map { _ in FlatGeobufFeatureDecoder(plan: plan) }
        // Records go on to the sink batch by batch, unless a feature may still turn out to be GDAL's
        // to read (per-feature geometry types may be curves; dates in a wanted column may take a
        // form GDAL parses its own way): then nothing is passed on until the whole file is read.
        let wantsDates = fields.wantedColumns.contains { header.columns?[$0].type == .dateTime }
        let streams = (1...6).contains(header.geometryType) && !wantsDates
        // The header's count, unless the file could not hold that many features (16 bytes at least).
        sink.reserveCapacity(min(Int(header.featuresCount), file.fileSize / 16))
        var held: [[SourceTable.Record]] = []
        // A streamed batch is passed on while the next one is decoded (the consumer, a run's
        // ingest, works on one thread; the decoders would otherwise wait for it).
        let pending = PendingBatch(sink)
        var passedOn = 0
        do throws(FlatGeobufProblem) {
            let take = { (batch: FlatGeobufFile.Batch) throws(FlatGeobufProblem) in
                let passOn: @Sendable () -> Void = { pending.pass() }
                let records = try decode(batch, decoders: decoders, alongside: pending.records.isEmpty ? nil : passOn)
                if streams {
                    passedOn += records.count
                    pending.records = records
                } else {
                    held.append(records)
                }
            }
            // The box in the file's CRS (none when the file names no CRS it can be brought to).
            var searched = false
            if let lonLatBox, let b = try? GeoParquetSourceReader.sourceBox(lonLatBox, crs: crs, role: role, spec: spec) {
                searched = try file.forEachBatch(within: BBox(minX: b.xmin, minY: b.ymin, maxX: b.xmax, maxY: b.ymax), take)
            }
            if !searched { try file.forEachBatch(chunkSize: chunkSize, take) }
            pending.pass()
        } catch {
            // Streaming files meet no GDAL-only content (see above); were one to, the records before
            // it are already taken and GDAL could not start over.
            if case .needsGDAL(let why) = error, passedOn > 0 {
                throw .corrupt("after \(passedOn) features: \(why), which only GDAL reads")
            }
            throw error
        }
        for i in held.indices { sink.append(contentsOf: &held[i]) }
        var hits = plan.lookups.map { [Int](repeating: 0, count: $0.count) }
        for d in decoders {
            let counts = d.hitCounts
            for f in hits.indices { for k in hits[f].indices { hits[f][k] += counts[f][k] } }
        }
        var table = SourceTable(spec: spec, role: role, reader: name, layerName: header.name ?? "unknown",
                                crsDefinition: crs, resolvedFields: fields.resolved(hits: hits),
                                attributeFilter: nil, records: sink.finish(), recordCount: sink.count)
        table.fields = (header.columns ?? []).map { SourceField(name: $0.name, type: $0.type.name) }
        table.readsInParts = file.hasSpatialIndex
        return table
    }

    /// Decoded records waiting to be passed on, and the sink they go to (used by one thread at a time).
    private final class PendingBatch: @unchecked Sendable {
        let sink: RecordSink
        var records: [SourceTable.Record] = []

        init(_ sink: RecordSink) { self.sink = sink }

        func pass() {
            guard !records.isEmpty else { return }
            sink.append(contentsOf: &records)
        }
    }

    /// A batch's records, in file order; `alongside` runs on its own thread meanwhile.
    private static func decode(_ batch: FlatGeobufFile.Batch, decoders: [FlatGeobufFeatureDecoder],
                               alongside: (@Sendable () -> Void)? = nil) throws(FlatGeobufProblem) -> [SourceTable.Record] {
        var failure: FlatGeobufProblem?
        let records = [SourceTable.Record](unsafeUninitializedCapacity: batch.features.count) { slots, initialized in
            do throws(FlatGeobufProblem) {
                try decodeInParallel(batch, decoders: decoders, into: slots, alongside: alongside)
                initialized = batch.features.count
            } catch {
                failure = error  // nothing initialised
            }
        }
        if let failure { throw failure }
        return records
    }

    /// Decodes a batch into `slots` (uninitialised, one per feature). The batch is cut into
    /// contiguous parts, several per decoder, which the decoders take in turn (features differ in
    /// size: fixed halves left one thread waiting for the other). Either every slot is
    /// initialised or, on a problem, none is.
    private static func decodeInParallel(_ batch: FlatGeobufFile.Batch, decoders: [FlatGeobufFeatureDecoder],
                                         into slots: UnsafeMutableBufferPointer<SourceTable.Record>,
                                         alongside: (@Sendable () -> Void)?) throws(FlatGeobufProblem) {
        let n = batch.features.count
        let parts = max(1, min(n / 128, decoders.count * 8))
        let workers = min(decoders.count, parts)
        var failures = [FlatGeobufProblem?](repeating: nil, count: parts)
        var done = [Int](repeating: 0, count: parts)  // slots each part initialised
        let next = ChunkCounter()
        failures.withUnsafeMutableBufferPointer { failures in
            done.withUnsafeMutableBufferPointer { done in
                let shared = UncheckedBox((decoders, slots, failures, done, batch))
                DispatchQueue.concurrentPerform(iterations: workers + (alongside == nil ? 0 : 1)) { w in
                    guard w < workers else { alongside?(); return }
                    let (decoders, slots, failures, done, batch) = shared.value
                    let decoder = decoders[w]
                    while let part = next.take(below: parts) {
                        for i in (n * part / parts)..<(n * (part + 1) / parts) {
                            let ordinal = batch.index(i) + 1
                            let bytes = UnsafeRawBufferPointer(rebasing: batch.bytes[batch.features[i]])
                            do throws(FlatGeobufProblem) {
                                (slots.baseAddress! + i).initialize(to: try decoder.decode(bytes, ordinal: ordinal))
                                done[part] += 1
                            } catch {
                                guard case .corrupt(let why) = error else { failures[part] = error; break }
                                failures[part] = .corrupt("feature \(ordinal): \(why)")
                                break
                            }
                        }
                    }
                }
            }
        }
        guard let failure = failures.lazy.compactMap({ $0 }).first else { return }
        for part in 0..<parts { (slots.baseAddress! + n * part / parts).deinitialize(count: done[part]) }
        throw failure
    }

    /// The CRS as a definition PROJ reads: "EPSG:<code>" for an EPSG code PROJ knows; anything
    /// else (another authority, WKT only) as GDAL interprets it, asked of GDAL (the header only).
    static func crsDefinition(_ crs: FlatGeobufHeader.CRS?, spec: SourceSpec) throws(FlatGeobufProblem) -> String? {
        guard let crs else { return nil }
        if crs.org == nil || crs.org?.uppercased() == "EPSG", crs.code != 0, CRSInfo.isKnown("EPSG:\(crs.code)") {
            return "EPSG:\(crs.code)"
        }
        do {
            return try GDALVectorDataset(path: spec.location).layer(named: nil).crsWKT
        } catch {
            throw .needsGDAL("CRS: \(error.message)")
        }
    }
}
