internal import CLateBound
import Foundation
import GeoParquet

/// `--format parquet`: the directory with `addresses.parquet`, `buildings.parquet`,
/// `units.parquet` and `features.parquet` (GeoParquet 1.1, written by the project's own writer:
/// GDAL 3.6 has none) in place of the GeoJSON files; CSV and report.json as in a directory.
/// Geometries are the GeoJSON's, as ISO WKB (a building stays a Polygon or a MultiPolygon).
package enum GeoParquetOutput {
    /// Replaces each staged GeoJSON layer in `staged` by its GeoParquet file.
    package static func convert(_ staged: OutputDirectory, threads: Int) throws {
        let dir = staged.staging.path
        try LayerConversions.run(threads: threads) { layer in
            try convert(layer, from: "\(dir)/\(layer.staged)", to: "\(dir)/\(layer.name).parquet")
            try? FileManager.default.removeItem(atPath: "\(dir)/\(layer.staged)")
        }
    }

    static func convert(_ layer: OutputLayer, from geojson: String, to path: String) throws {
        var columns = layer.columns.map { c -> ParquetColumnBuffer in
            let kind: ParquetColumnBuffer.Kind = switch c.kind {
            case .text: .text
            case .integer: .int64
            case .real: .double
            case .boolean: .boolean
            }
            return ParquetColumnBuffer(name: c.name, kind: kind)
        }
        var geometry = ParquetColumnBuffer(name: "geometry", kind: .binary)
        var wkb: [UInt8] = []
        try StagedLayerReader(layer: layer, path: geojson).forEachRow { values, feature in
            for (k, v) in values.enumerated() {
                switch v {
                case nil: columns[k].appendNull()
                case .text(let s)?: columns[k].append(text: s)
                case .integer(let n)?: columns[k].append(int: n)
                case .real(let d)?: columns[k].append(double: d)
                case .boolean(let b)?: columns[k].append(bool: b)
                }
            }
            guard let feature, let g = gdal.OGR_F_GetGeometryRef(feature) else { return geometry.appendNull() }
            wkb = [UInt8](repeating: 0, count: Int(gdal.OGR_G_WkbSize(g)))
            guard wkb.withUnsafeMutableBufferPointer({ gdal.OGR_G_ExportToIsoWkb(g, wkbNDR, $0.baseAddress) }) == OGRERR_NONE else {
                throw OutputError("\(geojson): a geometry GDAL cannot write as WKB")
            }
            geometry.append(bytes: wkb)
        }
        do {
            try GeoParquetWriter.write(path: path, columns: columns, geometry: geometry)
        } catch {
            throw OutputError("cannot write \(path): \(error)")
        }
    }
}
