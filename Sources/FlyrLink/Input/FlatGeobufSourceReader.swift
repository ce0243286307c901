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
            && FileManager.default.fileExists(atPath: spec.location)
    }

    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable {
        do {
            var table = try readOwn(spec, role: role, mapping: mapping)
            for record in table.records { sink.append(record) }
            table.records = sink.finish()
            table.recordCount = sink.count
            return table
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
    static func readOwn(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping,
                        chunkSize: Int = 8 << 20) throws(FlatGeobufProblem) -> SourceTable {
        let file = try FlatGeobufFile(path: spec.location)
        let header = file.header
        let fields = try FlatGeobufFieldPlan(header: header, role: role, mapping: mapping)
        let crs = try crsDefinition(header.crs, spec: spec)
        let plan = FlatGeobufFeatureDecoder.Plan(
            headerGeometryType: header.geometryType, geometry: FlatGeobufGeometry(hasZ: header.hasZ, hasM: header.hasM),
            properties: try FlatGeobufProperties(columns: header.columns, wanted: fields.wantedColumns),
            lookups: fields.lookups, tagsSlot: fields.tagsSlot, wantedCount: fields.wantedColumns.count)

        // One decoder per core (each feature is decoded on its own, so the count changes no record).
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let decoders = (0..<workers).map { _ in FlatGeobufFeatureDecoder(plan: plan) }
        let records = try decodeAll(file, decoders: decoders, chunkSize: chunkSize)
        var hits = plan.lookups.map { [Int](repeating: 0, count: $0.count) }
        for d in decoders {
            let counts = d.hitCounts
            for f in hits.indices { for k in hits[f].indices { hits[f][k] += counts[f][k] } }
        }
        return SourceTable(spec: spec, role: role, reader: name, layerName: header.name ?? "unknown",
                           crsDefinition: crs, resolvedFields: fields.resolved(hits: hits),
                           attributeFilter: nil, records: records, recordCount: records.count)
    }

    /// Every feature's record, in file order. With the header's count the records are decoded
    /// straight into the array's storage, each thread touching its own slots first; without it
    /// (a streamed file) the array grows batch by batch.
    private static func decodeAll(_ file: FlatGeobufFile, decoders: [FlatGeobufFeatureDecoder],
                                  chunkSize: Int) throws(FlatGeobufProblem) -> [SourceTable.Record] {
        var failure: FlatGeobufProblem?
        // A feature takes at least 16 bytes: a damaged count cannot ask for more room than the file could fill.
        let capacity = min(Int(file.header.featuresCount), file.fileSize / 16)
        if capacity > 0 {
            let records = [SourceTable.Record](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                do throws(FlatGeobufProblem) {
                    try file.forEachBatch(chunkSize: chunkSize) { batch throws(FlatGeobufProblem) in
                        let end = batch.firstIndex + batch.features.count
                        guard end <= capacity else { throw .corrupt("features after the \(capacity)th are too small to be features") }
                        try decodeInParallel(batch, decoders: decoders, into: UnsafeMutableBufferPointer(rebasing: buffer[batch.firstIndex..<end]))
                        initialized = end
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            return records
        }
        var records: [SourceTable.Record] = []
        try file.forEachBatch(chunkSize: chunkSize) { batch throws(FlatGeobufProblem) in
            let n = batch.features.count
            let base = records.count
            records.append(contentsOf: repeatElement(placeholder, count: n))
            records.withUnsafeMutableBufferPointer { all in
                let slots = UnsafeMutableBufferPointer(rebasing: all[base..<(base + n)])
                _ = slots.deinitialize()
                do throws(FlatGeobufProblem) {
                    try decodeInParallel(batch, decoders: decoders, into: slots)
                } catch {
                    slots.initialize(repeating: placeholder)
                    failure = error
                }
            }
            if let failure { throw failure }
        }
        return records
    }

    /// A record slot's content until its feature is decoded (no allocation).
    private static let placeholder = SourceTable.Record(ordinal: 0, values: [], wkb: nil)

    /// Decodes a batch into `slots` (uninitialised, one per feature). The batch is cut into
    /// contiguous parts, several per decoder, which the decoders take in turn (features differ in
    /// size: fixed halves left one thread waiting for the other). Either every slot is
    /// initialised or, on a problem, none is.
    private static func decodeInParallel(_ batch: FlatGeobufFile.Batch, decoders: [FlatGeobufFeatureDecoder],
                                         into slots: UnsafeMutableBufferPointer<SourceTable.Record>) throws(FlatGeobufProblem) {
        let n = batch.features.count
        let parts = max(1, min(n / 128, decoders.count * 8))
        let workers = min(decoders.count, parts)
        var failures = [FlatGeobufProblem?](repeating: nil, count: parts)
        var done = [Int](repeating: 0, count: parts)  // slots each part initialised
        let next = ChunkCounter()
        failures.withUnsafeMutableBufferPointer { failures in
            done.withUnsafeMutableBufferPointer { done in
                let shared = UncheckedBox((decoders, slots, failures, done, batch))
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    let (decoders, slots, failures, done, batch) = shared.value
                    let decoder = decoders[w]
                    while let part = next.take(below: parts) {
                        for i in (n * part / parts)..<(n * (part + 1) / parts) {
                            let ordinal = batch.firstIndex + i + 1
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
