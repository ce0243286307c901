// Small benchmark / inspection tool:
//   swift run -c release geoparquet-bench FILE [repeats=5] [column ...]
// Reads the primary geometry (and the named columns) of FILE `repeats` times and prints rows/s.
import Foundation
import GeoParquet

let args = CommandLine.arguments
guard args.count >= 2 else {
    print("usage: geoparquet-bench FILE [repeats] [column ...]")
    exit(2)
}
let path = args[1]
let repeats = args.count > 2 ? Int(args[2]) ?? 5 : 5
let columns = args.count > 3 ? Array(args[3...]) : []
do {
    let f = try GeoParquetFile(path: path)
    print("\(path): \(f.numRows) rows, \(f.rowGroupCount) row groups, geometry \(f.primaryGeometryColumn ?? "-")")
    for g in f.geometryColumns {
        print("  geometry column \(g.name): \(g.encoding) types \(g.geometryTypes) covering \(g.covering.map { "\($0)" } ?? "-") crs \(g.crsPROJJSON.map { String($0.prefix(60)) + "…" } ?? g.crsIdentifier ?? (g.crsIsUnknown ? "unknown" : "-"))")
    }
    var best = Double.infinity
    for _ in 0..<repeats {
        let t0 = Date()
        var rows = 0, bytes = 0
        let stats = try f.read(columns: columns) { b in
            rows += b.rowCount
            for w in b.geometryWKB { bytes += w?.count ?? 0 }
        }
        let dt = Date().timeIntervalSince(t0)
        best = min(best, dt)
        print(String(format: "  read %d rows, %d WKB bytes, %d file bytes in %.3f s (%.0f rows/s)",
                     rows, bytes, stats.bytesRead, dt, Double(rows) / dt))
    }
    print(String(format: "best: %.3f s = %.0f rows/s", best, Double(f.numRows) / best))
} catch {
    print("error: \(error)")
    exit(1)
}
