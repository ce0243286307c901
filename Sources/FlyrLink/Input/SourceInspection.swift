import Foundation

/// What a source reads as, for `flyr-link inspect` and the read benchmark.
public struct SourceInspection: Sendable {
    public var reader: String
    public var layer: String
    public var crs: String
    public var features: Int
    public var withGeometry: Int
    public var fields: [String: String]
    public var parquet: ParquetReadReport?
    public var seconds: Double
    /// Processor time of the read (user + system, all threads): what a multi-threaded reader costs.
    public var cpuSeconds: Double

    public static func inspect(_ spec: SourceSpec, role: LayerRole, territory: SourceSpec? = nil,
                               parquetReader: RunOptions.ParquetReader = .auto) throws -> SourceInspection {
        let box = try territory.map { t throws(InputError) in try Territory.read(t).footprint.bbox }
        let t0 = Date(), cpu0 = processorSeconds()
        let table = try SourceReader.read(spec, role: role, mapping: FieldMapping(), parquet: parquetReader, lonLatBox: box)
        let seconds = Date().timeIntervalSince(t0), cpuSeconds = processorSeconds() - cpu0
        let crs = table.crsDefinition.map { CRSInfo.authorityName($0) ?? String($0.prefix(60)) } ?? "none"
        return SourceInspection(reader: table.reader, layer: table.layerName, crs: crs, features: table.records.count,
                                withGeometry: table.records.filter { $0.geometry != nil }.count, fields: table.resolvedFields,
                                parquet: table.parquet, seconds: seconds, cpuSeconds: cpuSeconds)
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
            "features: \(features) (\(withGeometry) with a geometry)",
            "fields:   " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "),
        ]
        if let p = parquet {
            lines.append("parquet:  \(p.rowGroupsRead) of \(p.rowGroupsTotal) row groups read, \(p.bytesRead) bytes, \(p.rowsSkippedByBBox) rows skipped by bbox")
        }
        lines.append(String(format: "seconds:  %.3f", seconds))
        lines.append(String(format: "cpu seconds: %.3f", cpuSeconds))
        return lines.joined(separator: "\n")
    }
}
