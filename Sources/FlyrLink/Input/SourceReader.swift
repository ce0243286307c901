/// Which reader a source goes to: GDAL for everything it opens; GeoParquet to GDAL's Parquet
/// driver when the linked GDAL has one, else (Debian's GDAL 3.6) to the project's own reader;
/// local GeoJSON and FlatGeobuf files to the project's streaming readers (GDAL's drivers are far slower).
package enum SourceReader {
    /// Whether `spec` is GeoParquet read by flyr-link's own reader (which reads shares of its row
    /// groups): with `--parquet-reader flyr`; with `auto`, a remote file (the reader fetches only
    /// what a territory needs), a local directory (its parts read as one layer, as an S3 prefix),
    /// or any file where GDAL has no Parquet driver.
    package static func readsInShares(_ spec: SourceSpec, parquet: RunOptions.ParquetReader) -> Bool {
        guard spec.isGeoParquet else { return false }
        switch parquet {
        case .flyr: return true
        case .gdal: return false
        case .auto:
            return RemoteLocation.isRemote(spec.location) || LocalSource.kind(spec.location) == .directory || !GDALEnvironment.hasDriver("Parquet")
        }
    }

    /// `lonLatBox`: a GeoParquet source is read only where its row groups meet it; with
    /// `indexedFlatGeobuf`, so is a FlatGeobuf file with a spatial index (a tile of a distributed
    /// run: a run's `--territory` reads FlatGeobuf whole, as it always has). `remote`: how long
    /// and how slowly a remote source's reads may go.
    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping,
                     parquet: RunOptions.ParquetReader = .auto, lonLatBox: BBox? = nil, indexedFlatGeobuf: Bool = false,
                     share: SourceShare? = nil, remote: RemoteReadLimits = RemoteReadLimits(),
                     sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable {
        if let share {
            // (Only GeoParquet has row groups to share out: a plan's shares are refused otherwise.)
            guard spec.isGeoParquet, parquet != .gdal else {
                throw InputError("\(role.rawValue): \(spec.description) is read in shares (\(share)) only as GeoParquet, by flyr-link's reader")
            }
            return try GeoParquetSourceReader.read(spec, role: role, mapping: mapping, lonLatBox: lonLatBox, share: share, sink: sink, remote: remote)
        }
        if spec.isGeoParquet {
            switch parquet {
            case .flyr:
                return try GeoParquetSourceReader.read(spec, role: role, mapping: mapping, lonLatBox: lonLatBox, sink: sink, remote: remote)
            case .gdal:
                guard GDALEnvironment.hasDriver("Parquet") else {
                    throw InputError("\(role.rawValue): --parquet-reader gdal, but this GDAL has no Parquet driver")
                }
            case .auto:
                if readsInShares(spec, parquet: parquet) {
                    return try GeoParquetSourceReader.read(spec, role: role, mapping: mapping, lonLatBox: lonLatBox, sink: sink, remote: remote)
                }
            }
        }
        // (What goes to GDAL below may be remote: /vsicurl/, an https:// GeoJSON.)
        return try remote.applyingToGDAL(for: spec) { () throws(InputError) in
            if GeoJSONSourceReader.handles(spec) {
                return try GeoJSONSourceReader.read(spec, role: role, mapping: mapping, sink: sink)
            }
            if FlatGeobufSourceReader.handles(spec) {
                return try FlatGeobufSourceReader.read(spec, role: role, mapping: mapping, lonLatBox: indexedFlatGeobuf ? lonLatBox : nil, sink: sink)
            }
            return try GDALSourceReader.read(spec, role: role, mapping: mapping, sink: sink)
        }
    }
}
