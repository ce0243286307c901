import Foundation

/// `--format fgb`: the directory with `addresses.fgb`, `buildings.fgb`, `units.fgb` and
/// `features.fgb` (GDAL's FlatGeobuf driver, with its packed Hilbert R-tree index, which also
/// puts the features in Hilbert order) in place of the GeoJSON files; CSV and report.json as in a directory.
package enum FlatGeobufOutput {
    /// Replaces each staged GeoJSON layer in `staged` by its FlatGeobuf file.
    package static func convert(_ staged: OutputDirectory, threads: Int) throws {
        let dir = staged.staging.path
        try LayerConversions.run(threads: threads) { layer in
            let fgb = try OGROutputDataset(driver: "FlatGeobuf", path: "\(dir)/\(layer.name).fgb")
            try fgb.write(layer, from: "\(dir)/\(layer.staged)", options: ["SPATIAL_INDEX=YES"])
            try fgb.close()
            try? FileManager.default.removeItem(atPath: "\(dir)/\(layer.staged)")
        }
    }
}
