internal import CLateBound
import Foundation

/// `--format gpkg`: one GeoPackage holding the layers addresses, buildings, units and features,
/// the tables links and rejects (the same columns and values as the directory's files), and two
/// tables of its own: `report` (report.json's text without its `run` section of wall times and
/// thread count, so the same run gives the same bytes; one row) and `flyr_link_output` (the marker
/// a later run recognises its own GeoPackage by, as `.flyr-link-output` in a directory).
package enum GeoPackageOutput {
    static let markerTable = "flyr_link_output"
    /// gpkg_contents.last_change, otherwise the time of writing: the same run gives the same bytes.
    static let fixedDate = "1970-01-01T00:00:00.000Z"

    /// Writes the GeoPackage at `path` from the files staged in `staged` (RunWriter's directory
    /// files, or a distributed run's merged ones); `only`: the run's `--only`.
    package static func write(only: RunOptions.OutputSelection, staged: OutputDirectory, to path: String) throws {
        try GDALEnvironment.ready()
        let previous = gdal.CPLGetThreadLocalConfigOption("OGR_CURRENT_DATE", nil).map { String(cString: $0) }
        gdal.CPLSetThreadLocalConfigOption("OGR_CURRENT_DATE", fixedDate)
        defer { gdal.CPLSetThreadLocalConfigOption("OGR_CURRENT_DATE", previous) }

        let gpkg = try OGROutputDataset(driver: "GPKG", path: path)
        if only == .all {
            for layer in OutputLayer.geometryLayers {
                try gpkg.write(layer, from: staged.path(layer.staged), options: ["SPATIAL_INDEX=YES"], transactions: true)
            }
        }
        for table in [OutputLayer.links, .rejects] {
            try gpkg.write(table, from: staged.path(table.staged), transactions: true)
        }
        try gpkg.writeTable("report", columns: [OutputColumn("json")], rows: [[.text(try reportWithoutTimes(staged.path("report.json")))]])
        try gpkg.writeTable(markerTable, columns: [OutputColumn("format")],
                            rows: [[.text(OutputMarker.text.trimmingCharacters(in: .newlines))]])
        try gpkg.close()
    }

    /// report.json's text without its `run` member (the only part that differs between two runs).
    static func reportWithoutTimes(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path),
              var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw OutputError("cannot read \(path)") }
        object["run"] = nil
        let text = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: text, as: UTF8.self) + "\n"
    }

    /// Whether `path` is a GeoPackage flyr-link wrote (it has the marker table).
    static func isOwn(_ path: String) -> Bool {
        guard (try? GDALEnvironment.ready()) != nil,
              let dataset = try? GDALVectorDataset(path: path), dataset.driverName == "GPKG" else { return false }
        return dataset.layerNames.contains(markerTable)
    }

    /// Whether `path` is a GeoPackage of anyone's: an SQLite file whose application id is GeoPackage's
    /// (`GPKG`, or `GP10`/`GP11` of GeoPackage 1.0 and 1.1).
    static func isGeoPackage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 72), header.count == 72,
              header.prefix(16) == Data("SQLite format 3\u{0}".utf8) else { return false }
        let id = String(decoding: header[68..<72], as: UTF8.self)
        return ["GPKG", "GP10", "GP11"].contains(id)
    }
}
