import Foundation

/// Whether a run may replace its `--out` target. Replacing is deleting, so only what flyr-link
/// wrote is replaced: a user's file is never lost to a run, whatever its flags.
///
/// Replaced: a missing path; an empty directory or file; a directory holding the marker
/// (`OutputMarker`) and nothing but regular files a run writes; a GeoPackage flyr-link wrote.
/// With `--overwrite` also: a directory of regular files a run writes without the marker (a
/// look-alike), and any GeoPackage at a `.gpkg` target. Nothing else, ever; in particular never
/// the current directory, one of its parents, or one holding an input (`WritePath`).
public enum OutputTarget {
    /// The check for a run's options, before anything is read: its `--out`, and its `--write-evidence`
    /// file (`EvidenceTarget`). Nothing to check for a PostgreSQL target.
    public static func check(_ options: RunOptions) throws(OutputError) {
        let outputPath = PostgresTarget.conninfo(from: options.output) == nil ? options.output : nil
        if let outputPath {
            try check(path: outputPath, overwrite: options.overwrite, inputs: options.inputLocations, format: options.format)
        }
        if let evidence = options.evidencePath {
            try EvidenceTarget.check(evidence, overwrite: options.overwrite, inputs: options.inputLocations, output: outputPath)
        }
    }

    /// The names a run writes in an output directory, in any format.
    static let ownNames: Set<String> = {
        let layers = ["addresses", "buildings", "units", "features"]
        return Set(RunWriter.files + layers.map { "\($0).fgb" } + layers.map { "\($0).parquet" } + [OutputMarker.name])
    }()

    /// The target's path with symbolic links followed (what the run replaces), or refuses it.
    @discardableResult
    static func check(path: String, overwrite: Bool, inputs: [String], format: OutputFormat = .dir) throws(OutputError) -> URL {
        let found = try WritePath.resolve(path, role: "--out", inputs: inputs)
        guard let kind = found.kind else { return found.url }
        let shown = found.url.path
        func refuse(_ why: String) -> OutputError { OutputError("refusing to replace \(shown): \(why)") }
        if format == .gpkg {
            guard kind == .file else { throw refuse("it is a directory, and a GeoPackage output is one file (choose a file path)") }
            if WritePath.isEmptyFile(shown) || GeoPackageOutput.isOwn(shown) { return found.url }
            guard GeoPackageOutput.isGeoPackage(shown) else {
                throw refuse("it is not a GeoPackage (choose another path; a file that is not an output is never replaced)")
            }
            guard overwrite else { throw refuse("it is a GeoPackage flyr-link did not write (pass --overwrite to replace a GeoPackage)") }
            return found.url
        }
        guard kind == .directory else {
            if WritePath.isEmptyFile(shown) { return found.url }
            throw refuse("it is a file, not a directory (choose another path; a file that is not an output is never replaced)")
        }
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: shown)) ?? []).sorted()
        if entries.isEmpty { return found.url }
        if let foreign = entries.first(where: { !ownNames.contains($0) || !WritePath.isRegularFile(shown + "/" + $0) }) {
            throw refuse("it holds \(foreign), which flyr-link does not write (choose an empty or new directory; a directory of other files is never replaced)")
        }
        guard entries.contains(OutputMarker.name) || overwrite else {
            throw refuse("its files are named like flyr-link's outputs but it has no \(OutputMarker.name) marker "
                + "(pass --overwrite if flyr-link wrote it)")
        }
        // Its files could not be removed once the new output is in place: they would stay behind, hidden.
        guard access(shown, W_OK | X_OK) == 0 else {
            throw refuse("its files cannot be removed (\(String(cString: strerror(errno)))); make it writable (chmod u+w) or choose another --out")
        }
        return found.url
    }
}

extension RunOptions {
    /// The file locations the run reads (a location that is not a path matches no directory).
    public var inputLocations: [String] {
        [buildings.location, addresses.location] + (territory.map { [$0.location] } ?? []) + alsoReads
            + (linkModelPath.map { [$0] } ?? [])
    }
}
