import Foundation

/// Whether a run may replace its `--out` directory. Replacing is deleting: the directory's old
/// contents are gone once the new output is swapped in, so only what flyr-link itself wrote may be
/// replaced unless the user says otherwise.
///
/// Replaceable: a path that does not exist, an empty directory, a directory holding the marker
/// (`OutputMarker`), or — output of versions before the marker — a directory whose entries are all
/// among `RunWriter.files` and include report.json. `overwrite` (`--overwrite`) replaces anything
/// else too, except the current directory or one of its parents, and a directory holding an input:
/// those are never what the user meant.
public enum OutputTarget {
    /// The check for a run's options; nothing to check for a PostgreSQL target.
    public static func check(_ options: RunOptions) throws(OutputError) {
        guard PostgresTarget.conninfo(from: options.outputDirectory) == nil else { return }
        try check(path: options.outputDirectory, overwrite: options.overwrite, inputs: options.inputLocations, format: options.format)
    }

    static func check(path: String, overwrite: Bool, inputs: [String], format: OutputFormat = .dir) throws(OutputError) {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDir) else { return }
        if format == .gpkg { return try checkFile(target, isDirectory: isDir.boolValue, overwrite: overwrite, inputs: inputs) }
        guard isDir.boolValue else { throw OutputError("output \(target.path) exists and is not a directory") }

        // Compared as real paths: `.`, `..`, symbolic links and relative inputs all name the same place.
        guard let real = realPath(target.path) else { return }
        func refuse(_ why: String) -> OutputError { OutputError("refusing to replace \(target.path): \(why)") }
        if let cwd = realPath("."), isSameOrInside(cwd, real) {
            throw refuse("it is the current directory or one of its parents (never replaced, not even with --overwrite)")
        }
        for input in inputs {
            if let file = realPath(input), isSameOrInside(file, real) {
                throw refuse("it holds the input \(input) (never replaced, not even with --overwrite)")
            }
        }
        if overwrite { return }

        let entries = (try? FileManager.default.contentsOfDirectory(atPath: target.path)) ?? []
        if entries.isEmpty || entries.contains(OutputMarker.name) { return }
        // Written before the marker existed: nothing but flyr-link's own files, report.json among them.
        if entries.contains("report.json"), Set(entries).isSubset(of: RunWriter.files) { return }
        throw refuse("it is not empty and was not written by flyr-link (pass --overwrite to replace it)")
    }

    /// A GeoPackage target: replaceable when it is an empty file or a GeoPackage flyr-link wrote
    /// (`GeoPackageOutput.isOwn`), or anything but a directory or an input with `--overwrite`.
    private static func checkFile(_ target: URL, isDirectory: Bool, overwrite: Bool, inputs: [String]) throws(OutputError) {
        func refuse(_ why: String) -> OutputError { OutputError("refusing to replace \(target.path): \(why)") }
        if isDirectory { throw refuse("it is a directory, and a GeoPackage output is one file (never replaced, not even with --overwrite)") }
        if let real = realPath(target.path), inputs.contains(where: { realPath($0) == real }) {
            throw refuse("it is an input (never replaced, not even with --overwrite)")
        }
        if overwrite { return }
        let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? nil
        if size == 0 || GeoPackageOutput.isOwn(target.path) { return }
        throw refuse("it is not a GeoPackage written by flyr-link (pass --overwrite to replace it)")
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Whether `path` is `dir` or lies inside it (both real paths).
    static func isSameOrInside(_ path: String, _ dir: String) -> Bool {
        path == dir || path.hasPrefix(dir == "/" ? "/" : dir + "/")
    }
}

extension RunOptions {
    /// The file locations the run reads (a location that is not a path matches no directory),
    /// and a distributed run's decisions.
    var inputLocations: [String] {
        [buildings.location, addresses.location] + (territory.map { [$0.location] } ?? []) + (decisionsDirectory.map { [$0] } ?? [])
    }
}
