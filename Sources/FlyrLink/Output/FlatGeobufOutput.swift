import Foundation

/// `--format fgb`: the directory with `addresses.fgb`, `buildings.fgb`, `units.fgb` and
/// `features.fgb` (GDAL's FlatGeobuf driver, with its packed Hilbert R-tree index, which also
/// puts the features in Hilbert order) in place of the GeoJSON files; CSV and report.json as in a directory.
enum FlatGeobufOutput {
    /// Replaces each staged GeoJSON layer in `staged` by its FlatGeobuf file.
    static func convert(_ staged: OutputDirectory) throws {
        for layer in OutputLayer.geometryLayers {
            let fgb = try OGROutputDataset(driver: "FlatGeobuf", path: staged.path("\(layer.name).fgb"))
            try fgb.write(layer, from: staged.path(layer.staged), options: ["SPATIAL_INDEX=YES"])
            try fgb.close()
            try? FileManager.default.removeItem(atPath: staged.path(layer.staged))
        }
    }
}
