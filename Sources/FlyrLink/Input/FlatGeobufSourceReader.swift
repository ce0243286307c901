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

    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping) throws(InputError) -> SourceTable {
        do {
            return try readOwn(spec, role: role, mapping: mapping)
        } catch {
            switch error {
            case .needsGDAL:
                return try GDALSourceReader.read(spec, role: role, mapping: mapping)
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
        var records: [SourceTable.Record] = []
        // The header's count, unless the file is too small to hold that many (a damaged header).
        records.reserveCapacity(min(Int(header.featuresCount), file.fileSize / 32))
        try file.forEachBatch(chunkSize: chunkSize) { batch throws(FlatGeobufProblem) in
            try decodeInParallel(batch, decoders: decoders, into: &records)
        }
        var hits = plan.lookups.map { [Int](repeating: 0, count: $0.count) }
        for d in decoders {
            let counts = d.hitCounts
            for f in hits.indices { for k in hits[f].indices { hits[f][k] += counts[f][k] } }
        }
        return SourceTable(spec: spec, role: role, reader: name, layerName: header.name ?? "unknown",
                           crsDefinition: crs, resolvedFields: fields.resolved(hits: hits),
                           attributeFilter: nil, records: records)
    }

    /// Splits a batch in contiguous parts, one per decoder, each writing its records straight
    /// into their places at the end of `records` (no copies: a copy of a million records costs
    /// a retain and a release of each one's arrays).
    private static func decodeInParallel(_ batch: FlatGeobufFile.Batch, decoders: [FlatGeobufFeatureDecoder],
                                         into records: inout [SourceTable.Record]) throws(FlatGeobufProblem) {
        let n = batch.features.count
        let parts = n < 256 ? 1 : decoders.count
        let base = records.count
        records.append(contentsOf: repeatElement(placeholder, count: n))
        var failures = [FlatGeobufProblem?](repeating: nil, count: parts)
        records.withUnsafeMutableBufferPointer { records in
            failures.withUnsafeMutableBufferPointer { failures in
                let shared = UncheckedSendable((decoders, records, failures, batch))
                DispatchQueue.concurrentPerform(iterations: parts) { p in
                    let (decoders, records, failures, batch) = shared.value
                    let decoder = decoders[p]
                    for i in (n * p / parts)..<(n * (p + 1) / parts) {
                        let ordinal = batch.firstIndex + i + 1
                        let bytes = UnsafeRawBufferPointer(rebasing: batch.bytes[batch.features[i]])
                        do throws(FlatGeobufProblem) {
                            records[base + i] = try decoder.decode(bytes, ordinal: ordinal)
                        } catch {
                            guard case .corrupt(let why) = error else { failures[p] = error; return }
                            failures[p] = .corrupt("feature \(ordinal): \(why)")
                            return
                        }
                    }
                }
            }
        }
        if let failure = failures.lazy.compactMap({ $0 }).first { throw failure }
    }

    /// What fills a record's place until its feature is decoded (no allocation).
    private static let placeholder = SourceTable.Record(ordinal: 0, values: [], wkb: nil)

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

/// A value handed to the decoding threads, each of which touches only its own slots.
private struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
