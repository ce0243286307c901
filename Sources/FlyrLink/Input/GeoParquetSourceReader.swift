import Foundation
import GeoParquet

/// Reads GeoParquet with the project's own reader (Sources/GeoParquet): only the columns the
/// field mapping needs, the primary WKB geometry column, and — with a territory — only the row
/// groups whose bbox statistics meet it.
enum GeoParquetSourceReader {
    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, lonLatBox: BBox?,
                     sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable {
        let remote = RemoteLocation(spec.location)
        if remote == nil, let why = LocalSource.problem(spec.location) ?? (LocalSource.kind(spec.location) == .directory ? "is a directory, not a file" : nil) {
            throw InputError("\(role.rawValue): cannot open \(spec.location): \(why)")
        }
        let file: GeoParquetFile
        var http: HTTPRangeSource?
        do {
            if let remote {
                // A URL or an S3 object: the footer and the needed column chunks by range requests.
                do { http = try HTTPRangeSource(remote) } catch { throw InputError("\(role.rawValue): \(spec.description): \(error)") }
                file = try GeoParquetFile(source: http!, name: spec.description)
            } else {
                file = try GeoParquetFile(path: spec.location)
            }
        } catch let error as GeoParquetError {
            throw InputError("\(role.rawValue): \(error.description)")
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError("\(role.rawValue): \(spec.description): \(error)")
        }
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

        let box = try lonLatBox.flatMap { b throws(InputError) in try sourceBox(b, crs: crs, role: role, spec: spec) }
        sink.reserveCapacity(file.numRows)
        let stats: ReadStats
        do {
            stats = try file.read(columns: columns, geometryColumn: geometryName, bbox: box) { batch in
                let valueColumns = chosen.map { name in name.flatMap { batch.values[$0] } }
                for row in 0..<batch.rowCount {
                    let ordinal = (batch.rowIndices?[row] ?? (batch.firstRowIndex + row)) + 1
                    let values = valueColumns.map { $0.flatMap { text($0, row) } }
                    sink.append(SourceTable.Record(ordinal: ordinal, values: values, wkb: batch.geometryWKB[row]))
                }
            }
        } catch let error as GeoParquetError {
            throw InputError("\(role.rawValue): \(error.description)")
        } catch {
            throw InputError("\(role.rawValue): \(spec.location): \(error)")
        }
        var table = SourceTable(spec: spec, role: role, reader: "flyr-link GeoParquet reader", layerName: geometryName,
                                crsDefinition: crs, resolvedFields: resolved, attributeFilter: nil, records: sink.finish(),
                                recordCount: sink.count)
        table.parquet = .init(rowGroupsTotal: stats.rowGroupsTotal, rowGroupsRead: stats.rowGroupsRead, bytesRead: stats.bytesRead,
                              rowsInFile: file.numRows, rowsSkippedByBBox: file.numRows - stats.rowsReturned,
                              bytesFetched: http?.bytesFetched, requests: http?.requests)
        table.fields = file.columns.filter { $0.path != geometryName }.map { SourceField(name: $0.path, type: $0.valueKind) }
        return table
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
