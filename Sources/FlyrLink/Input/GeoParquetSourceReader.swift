import Foundation
import GeoParquet

/// Reads GeoParquet with the project's own reader (Sources/GeoParquet): only the columns the
/// field mapping needs, the primary WKB geometry column, and — with a territory — only the row
/// groups whose bbox statistics meet it.
enum GeoParquetSourceReader {
    /// `share`: only that share of the row groups (a plan's task); its report counts the rows of
    /// the others as neither read nor skipped, so that the shares' reports add up to the whole's.
    /// `remote`: how long and how slowly a remote object's reads may go.
    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, lonLatBox: BBox?, share: SourceShare? = nil,
                     sink: RecordSink = RecordSink(), limits: LayerLimits = LayerLimits(),
                     remote remoteLimits: RemoteReadLimits = RemoteReadLimits()) throws(InputError) -> SourceTable {
        let remote = RemoteLocation(spec.location)
        if remote == nil, let why = LocalSource.problem(spec.location) {
            throw InputError("\(role.rawValue): cannot open \(spec.location): \(why)")
        }
        // The files to read: the one named, or every .parquet object under an S3 prefix or file
        // under a local directory (a partitioned dataset).
        let parts: [Part]
        if case let .s3(bucket, key)? = remote, remote?.isPrefix == true {
            do {
                parts = try S3ObjectList.parquetKeys(bucket: bucket, prefix: key, try S3Configuration(), limits: remoteLimits).map { .remote(.s3(bucket: bucket, key: $0)) }
            } catch {
                throw InputError("\(role.rawValue): \(spec.description): \(error)")
            }
            guard !parts.isEmpty else { throw InputError("\(role.rawValue): \(spec.description): no .parquet object under this prefix") }
        } else if let remote {
            parts = [.remote(remote)]
        } else if LocalSource.kind(spec.location) == .directory {
            let local: [String]
            do throws(InputError) { local = try LocalSource.parquetParts(spec.location) ?? [] } catch {
                throw InputError("\(role.rawValue): \(error.message)")
            }
            guard !local.isEmpty else { throw InputError("\(role.rawValue): cannot open \(spec.location): a directory with no .parquet file under it") }
            parts = local.map { .local($0) }
        } else {
            parts = [.local(spec.location)]
        }
        var (file, http) = try open(parts[0], spec: spec, role: role, remoteLimits)
        let geometryName = spec.layer ?? file.primaryGeometryColumn
        guard let geometryName, let geometry = file.geometryColumn(named: geometryName) else {
            let what = spec.layer.map { "no geometry column '\($0)'" } ?? "no geometry column"
            throw InputError("\(role.rawValue): \(spec.location) has \(what) (GeoParquet `geo` metadata or a GEOMETRY column)")
        }
        let crs: String? = geometry.crsIsUnknown ? nil : (geometry.crsPROJJSON ?? geometry.crsIdentifier ?? "OGC:CRS84")

        // Canonical fields → top-level (or dotted struct) columns, matched case-insensitively.
        let readable = file.columns.filter(\.isReadable).map(\.path)
        let lowered = Dictionary(readable.map { ($0.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var chosen: [String?] = []
        var resolved: [String: String] = [:]
        for (canonical, names, overridden) in mapping.candidates(for: role) {
            let hit = names.lazy.compactMap { lowered[$0.lowercased()] }.first
            if overridden && hit == nil {
                throw InputError("\(role.rawValue): column '\(names[0])' (for \(canonical)) not found in \(spec.location); columns: \(readable.joined(separator: ", "))")
            }
            chosen.append(hit)
            if let hit { resolved[canonical] = hit }
        }
        let columns = Array(Set(chosen.compactMap { $0 })).sorted()
        let fields = file.columns.filter { $0.path != geometryName }.map { SourceField(name: $0.path, type: $0.valueKind) }

        let box = try lonLatBox.flatMap { b throws(InputError) in try sourceBox(b, crs: crs, role: role, spec: spec) }
        var report = ParquetReadReport(rowGroupsTotal: 0, rowGroupsRead: 0, bytesRead: 0, rowsInFile: 0, rowsSkippedByBBox: 0,
                                       bytesFetched: http.map { _ in 0 }, requests: http.map { _ in 0 })
        var opened: [Int: Result<(GeoParquetFile, HTTPRangeSource?), InputError>] = [:]
        var groupsBefore = 0, totalGroups = file.rowGroupCount
        if share != nil, parts.count > 1 {
            // (A share is a run of the dataset's groups: every part's footer first, for their count.)
            opened = openConcurrently(parts, 1..<parts.count, spec: spec, role: role, remoteLimits)
            for index in 1..<parts.count { totalGroups += try opened[index]!.get().0.rowGroupCount }
        }
        for index in parts.indices {
            if index > 0 {
                // The next part of a partitioned dataset: the first part's geometry column and fields.
                // Footers are fetched `openAhead` parts at a time, concurrently: for a prefix of
                // hundreds of objects the round trips, not the bytes, are what a read waits for.
                if opened[index] == nil { opened = openConcurrently(parts, index..<min(index + openAhead, parts.count), spec: spec, role: role, remoteLimits) }
                (file, http) = try opened.removeValue(forKey: index)!.get()
                if let missing = ([geometryName] + columns).first(where: { name in !file.columns.contains { $0.path == name } }) {
                    throw InputError("\(role.rawValue): \(file.path) has no column '\(missing)', which the first file of \(spec.description) has")
                }
            }
            // Rows are numbered through the dataset, part after part. A whole read of more rows
            // than a process holds is refused from the footers, before hours of reading.
            let firstOrdinal = report.rowsInFile + 1
            let groups = share?.groups(first: groupsBefore, count: file.rowGroupCount, total: totalGroups)
            groupsBefore += file.rowGroupCount
            // (However little of it is read: each row keeps its number in the whole source.)
            if report.rowsInFile + file.numRows > RowNumber.limit {
                throw InputError("\(role.rawValue): \(spec.description): more than \(RowNumber.limit) rows; a row's number must fit in 32 bits: give the source in parts, a --territory at a time")
            }
            if box == nil, share == nil, report.rowsInFile + file.numRows > limits.rows {
                throw InputError("\(role.rawValue): \(spec.description): \(limits.tooManyRows())")
            }
            // (Room for every row only when every row is read: a tile of a continent reads a few.)
            if box == nil, share == nil { sink.reserveCapacity(report.rowsInFile + file.numRows) }
            let stats: ReadStats
            do {
                stats = try file.read(columns: columns, geometryColumn: geometryName, bbox: box, rowGroups: groups) { batch in
                    let valueColumns = chosen.map { name in name.flatMap { batch.values[$0] } }
                    for row in 0..<batch.rowCount {
                        let ordinal = (batch.rowIndices?[row] ?? (batch.firstRowIndex + row)) + firstOrdinal
                        let values = valueColumns.map { $0.flatMap { text($0, row) } }
                        sink.append(SourceTable.Record(ordinal: ordinal, values: values, wkb: batch.geometryWKB[row]))
                    }
                }
            } catch let error as GeoParquetError {
                throw InputError("\(role.rawValue): \(error.description)")
            } catch {
                throw InputError("\(role.rawValue): \(spec.location): \(error)")
            }
            report.rowGroupsTotal += file.rowGroupCount
            report.rowGroupsRead += stats.rowGroupsRead
            report.bytesRead += stats.bytesRead
            report.rowsInFile += file.numRows
            let counts = file.rowGroupRowCounts
            report.rowsSkippedByBBox += (groups.map { $0.reduce(0) { $0 + counts[$1] } } ?? file.numRows) - stats.rowsReturned
            if let http {
                report.bytesFetched = (report.bytesFetched ?? 0) + http.bytesFetched
                report.requests = (report.requests ?? 0) + http.requests
            }
        }
        var table = SourceTable(spec: spec, role: role, reader: "flyr-link GeoParquet reader", layerName: geometryName,
                                crsDefinition: crs, resolvedFields: resolved, attributeFilter: nil, records: sink.finish(),
                                recordCount: sink.count)
        table.parquet = report
        table.fields = fields
        table.readsInParts = true
        return table
    }

    /// How many parts of a partitioned dataset have their footers fetched at once.
    static let openAhead = 8

    /// `open` for the parts in `range`, on as many threads; results by part index.
    private static func openConcurrently(_ parts: [Part], _ range: Range<Int>, spec: SourceSpec, role: LayerRole,
                                         _ remoteLimits: RemoteReadLimits) -> [Int: Result<(GeoParquetFile, HTTPRangeSource?), InputError>] {
        let results = OpenedParts()
        DispatchQueue.concurrentPerform(iterations: range.count) { i in
            let index = range.lowerBound + i
            let result: Result<(GeoParquetFile, HTTPRangeSource?), InputError>
            do throws(InputError) { result = .success(try open(parts[index], spec: spec, role: role, remoteLimits)) } catch { result = .failure(error) }
            results.set(index, result)
        }
        return results.all
    }

    /// Results collected from the opening threads.
    private final class OpenedParts: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Int: Result<(GeoParquetFile, HTTPRangeSource?), InputError>] = [:]
        func set(_ index: Int, _ result: Result<(GeoParquetFile, HTTPRangeSource?), InputError>) {
            lock.withLock { results[index] = result }
        }
        var all: [Int: Result<(GeoParquetFile, HTTPRangeSource?), InputError>] { lock.withLock { results } }
    }

    /// One file of a source: a local file, or a remote object.
    enum Part {
        case local(String)
        case remote(RemoteLocation)
    }

    /// Opens a local file or a remote object: for the latter, only the footer is fetched here, with
    /// range requests.
    private static func open(_ part: Part, spec: SourceSpec, role: LayerRole,
                             _ remoteLimits: RemoteReadLimits) throws(InputError) -> (GeoParquetFile, HTTPRangeSource?) {
        // A part of a prefix is named by its own key; a single source as the user wrote it.
        let name: String
        switch part {
        case let .remote(.s3(bucket, key)) where RemoteLocation(spec.location) != .s3(bucket: bucket, key: key): name = "s3://\(bucket)/\(key)"
        default: name = spec.description
        }
        do {
            let remote: RemoteLocation
            switch part {
            case .local(let path): return (try GeoParquetFile(path: path), nil)
            case .remote(let r): remote = r
            }
            let http: HTTPRangeSource
            do { http = try HTTPRangeSource(remote, limits: remoteLimits) } catch { throw InputError("\(role.rawValue): \(name): \(error)") }
            return (try GeoParquetFile(source: http, name: name), http)
        } catch let error as GeoParquetError {
            throw InputError("\(role.rawValue): \(error.description)")
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("\(role.rawValue): \(name): \(error)")
        }
    }

    /// One value as text: what the canonical fields hold.
    static func text(_ values: ParquetValues, _ row: Int) -> String? {
        switch values {
        case .string(let v): return v[row]
        case .int64(let v): return v[row].map { String($0) }
        case .double(let v): return v[row].map { OutputNumber.fixed($0, 6) }
        case .bool(let v): return v[row].map { $0 ? "true" : "false" }
        case .binary(let v): return v[row].map { UUIDv5.format16($0) ?? $0.map { String(format: "%02x", $0) }.joined() }
        }
    }

    /// The territory's lon/lat box in the source's CRS (edges densified, so a curved image is covered).
    static func sourceBox(_ b: BBox, crs: String?, role: LayerRole, spec: SourceSpec) throws(InputError) -> BoundingBox? {
        guard let crs = spec.crs ?? crs else { return nil }
        let t: CoordinateTransformer
        do { t = try CoordinateTransformer(from: "EPSG:4326", to: crs) } catch { return nil }
        var pts: [Point2] = []
        for i in 0...20 {
            let f = Double(i) / 20
            let x = b.minX + (b.maxX - b.minX) * f, y = b.minY + (b.maxY - b.minY) * f
            pts += [Point2(x: x, y: b.minY), Point2(x: x, y: b.maxY), Point2(x: b.minX, y: y), Point2(x: b.maxX, y: y)]
        }
        t.forward(&pts)
        var box = BBox.empty
        for p in pts where p.isFinite { box.extend(p) }
        guard !box.isEmpty else { return nil }
        return BoundingBox(xmin: box.minX, ymin: box.minY, xmax: box.maxX, ymax: box.maxY)
    }
}
