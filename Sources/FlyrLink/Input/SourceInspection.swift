import Foundation

/// What a source reads as, for `flyr-link inspect` and the read benchmark: reader, layer, CRS,
/// geometry types, extent, the source's fields with their types, the field mapping a run would
/// use, the feature count and, with a territory, how many features a run would keep in it.
public struct SourceInspection: Sendable {
    public var reader: String
    public var layer: String
    public var crs: String
    public var features: Int
    public var withGeometry: Int
    /// Canonical field → the source field a run would read it from (the default mapping).
    public var fields: [String: String]
    /// Canonical fields of the role that no source field feeds.
    public var unmapped: [String]
    /// The source's own fields and their types, in the source's order.
    public var sourceFields: [SourceField]
    /// Geometry type → features, by type name ("Polygon", "MultiPolygon", "Point", "none", …).
    public var geometryTypes: [String: Int]
    /// The box of every coordinate read, in the source's CRS (as `ogrinfo` gives it); nil when no
    /// feature has a geometry.
    public var extent: BBox?
    /// With a territory: the features a run keeps in it (buildings that intersect it, addresses
    /// it covers), measured as a run measures them.
    public var insideTerritory: Int?
    /// The run's warning about an unmapped house number or street, when it would give one.
    public var mappingWarnings: [RunWarning] = []
    public var parquet: ParquetReadReport?
    public var seconds: Double
    /// Processor time of the read (user + system, all threads): what a multi-threaded reader costs.
    public var cpuSeconds: Double

    public static func inspect(_ spec: SourceSpec, role: LayerRole, territory: SourceSpec? = nil,
                               parquetReader: RunOptions.ParquetReader = .auto, remote: RemoteReadLimits = RemoteReadLimits()) throws -> SourceInspection {
        let area = try territory.map { t throws(InputError) in try Territory.read(t) }
        let t0 = Date(), cpu0 = processorSeconds()
        let table = try SourceReader.read(spec, role: role, mapping: FieldMapping(), parquet: parquetReader, lonLatBox: area?.footprint.bbox, remote: remote)
        let seconds = Date().timeIntervalSince(t0), cpuSeconds = processorSeconds() - cpu0
        let crs = table.crsDefinition.map { CRSInfo.authorityName($0) ?? String($0.prefix(60)) } ?? "none"
        var types: [String: Int] = [:]
        var extent = BBox.empty
        for r in table.records {
            types[typeName(r.geometry), default: 0] += 1
            switch r.geometry {
            case .point(let p)?: extent.extend(p)
            case .multiPoint(let ps)?: for p in ps { extent.extend(p) }
            case .polygons(let f)?: extent.extend(f.bbox)
            default: break
            }
        }
        let canonical = FieldMapping().candidates(for: role).map(\.canonical)
        var result = SourceInspection(reader: table.reader, layer: table.layerName, crs: crs, features: table.records.count,
                                      withGeometry: table.records.filter { $0.geometry != nil }.count, fields: table.resolvedFields,
                                      unmapped: canonical.filter { table.resolvedFields[$0] == nil }, sourceFields: table.fields,
                                      geometryTypes: types, extent: extent.isEmpty ? nil : extent,
                                      insideTerritory: try area.map { a throws(InputError) in try countInside(table, territory: a) },
                                      parquet: table.parquet, seconds: seconds, cpuSeconds: cpuSeconds)
        if role == .addresses, !table.records.isEmpty {
            result.mappingWarnings = [AddressField.houseNumber, .streetName].filter { table.resolvedFields[$0.rawValue] == nil }
                .map { RunWarnings.unmapped($0, fields: table.fields) }
        }
        return result
    }

    private static func typeName(_ g: SourceGeometry?) -> String {
        switch g {
        case nil: "none"
        case .point?: "Point"
        case .multiPoint?: "MultiPoint"
        case .polygons(let f)?: f.polygonCount == 1 ? "Polygon" : "MultiPolygon"
        case .other(let t)?: t
        case .empty(let t)?: "empty \(t)"
        }
    }

    /// The features a run would keep in `territory`: as the run decides it, in a metric frame
    /// centred on the territory — buildings (polygons) that intersect it, addresses (points) it
    /// covers. Whatever the format: the reader's bbox pruning (GeoParquet's row groups) only
    /// skips what lies outside anyway.
    private static func countInside(_ table: SourceTable, territory: Territory) throws(InputError) -> Int {
        var points: [Point2] = [], footprints: [Footprint] = []
        for r in table.records {
            switch r.geometry {
            case .point(let p)? where table.role == .addresses: points.append(p)
            case .polygons(let f)? where table.role != .addresses: footprints.append(f)
            default: break
            }
        }
        let sample = Array((points + footprints.prefix(1000).flatMap(\.points)).prefix(1000))
        let (transformer, _, _) = try Ingest.transformer(for: table, sample: sample)
        let frame = LocalMetricFrame.centred(on: territory.footprint.bbox)
        let filter = TerritoryFilter(area: frame.toMetric(territory.footprint))
        let pool = WorkerPool(threads: RunOptions.defaultThreads)
        transformer.forward(&points)
        footprints = footprints.map { $0.withPoints { transformer.forward(&$0) } }
        // (Coordinates outside their CRS's range are a run's rejects: not inside.)
        points = points.filter(Ingest.inRange)
        footprints = footprints.filter { $0.points.allSatisfy(Ingest.inRange) }
        let inside = table.role == .addresses
            ? filter.covering(frame.project(&points, inPlace: true, pool: pool), pool: pool)
            : filter.intersecting(frame.project(FootprintStore(footprints), inPlace: true, pool: pool), pool: pool)
        return inside.reduce(0) { $1 ? $0 + 1 : $0 }
    }

    private static func processorSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    public var text: String {
        var lines = [
            "reader:   \(reader)", "layer:    \(layer)", "crs:      \(crs)",
            "geometry: " + (geometryTypes.isEmpty ? "none" : geometryTypes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")),
            "extent:   " + (extent.map { "\(OutputNumber.fixed($0.minX, 7)), \(OutputNumber.fixed($0.minY, 7)) - \(OutputNumber.fixed($0.maxX, 7)), \(OutputNumber.fixed($0.maxY, 7)) (x, y in \(crs))" } ?? "none"),
            "features: \(features) (\(withGeometry) with a geometry)",
        ]
        if let insideTerritory {
            lines.append("inside territory: \(insideTerritory)")
        }
        lines.append("columns:  " + (sourceFields.isEmpty ? "none" : sourceFields.map { "\($0.name) (\($0.type))" }.joined(separator: ", ")))
        let mapped = fields.isEmpty ? "none" : fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        lines.append("fields:   " + mapped + (unmapped.isEmpty ? "" : "; not found: " + unmapped.joined(separator: ", ")))
        for w in mappingWarnings { lines.append("warning:  \(w.message)") }
        if let p = parquet {
            let fetched = p.bytesFetched.map { b in ", \(b) bytes fetched in \(p.requests ?? 0) HTTP requests" } ?? ""
            lines.append("parquet:  \(p.rowGroupsRead) of \(p.rowGroupsTotal) row groups read, \(p.bytesRead) bytes\(fetched), \(p.rowsSkippedByBBox) rows skipped by bbox")
        }
        lines.append(String(format: "seconds:  %.3f", seconds))
        lines.append(String(format: "cpu seconds: %.3f", cpuSeconds))
        return lines.joined(separator: "\n")
    }
}
