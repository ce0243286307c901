import Foundation

/// What kind of local file a source path names, so that a pipe or a directory is told apart from
/// a file before a reader opens it (opening a FIFO blocks, mapping a directory says "No such device").
enum LocalSource {
    enum Kind { case regular, directory, pipe, other, missing }

    /// The kind of what `path` names, symbolic links followed (`/dev/fd/63` is a pipe).
    static func kind(_ path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFIFO, S_IFSOCK: return .pipe
        default: return .other
        }
    }

    static func isRegularFile(_ path: String) -> Bool { kind(path) == .regular }

    /// The parts of a partitioned GeoParquet dataset in a local directory (Overture's layout,
    /// downloaded or on a shared file system): every file under it, at any depth, whose name ends
    /// in `.parquet`, in the order of their paths below it (bytewise, as S3 lists the same keys
    /// under a prefix); nil when `path` is not a directory.
    static func parquetParts(_ path: String) -> [String]? {
        guard kind(path) == .directory, let walk = FileManager.default.enumerator(atPath: path) else { return nil }
        var parts: [String] = []
        while let relative = walk.nextObject() as? String {
            let full = (path as NSString).appendingPathComponent(relative)
            if relative.hasSuffix(".parquet"), kind(full) == .regular { parts.append(relative) }
        }
        return parts.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            .map { (path as NSString).appendingPathComponent($0) }
    }

    /// Why `path` cannot be read as a source before anything opens it; nil when it may be
    /// (a regular file, a directory GDAL may read, a missing path or a non-file location).
    static func problem(_ path: String) -> String? {
        switch kind(path) {
        case .pipe:
            return "is a pipe, not a file: sources are read more than once, so pipes (e.g. <(…)) are not supported; write it to a file first"
        case .other:
            return "is a device, not a file: write it to a file first"
        default:
            return nil
        }
    }

    /// The reason to give when GDAL could not open an existing local `path`.
    static func openFailure(_ path: String) -> String? {
        kind(path) == .directory ? "is a directory, not a file, and GDAL reads no vector layer from it" : nil
    }
}
