import Foundation

/// What kind of local file a source path names, so that a pipe or a directory is told apart from
/// a file before a reader opens it (opening a FIFO blocks, mapping a directory says "No such device").
package enum LocalSource {
    enum Kind { case regular, directory, pipe, other, missing, linkLoop }

    /// The kind of what `path` names, symbolic links followed (`/dev/fd/63` is a pipe).
    static func kind(_ path: String) -> Kind {
        var st = stat()
        guard stat(path, &st) == 0 else { return errno == ELOOP ? .linkLoop : .missing }
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
    /// under a prefix); nil when `path` is not a directory. Symbolic links are followed (a
    /// directory met twice, as a loop would, is read once); a directory that cannot be read is an
    /// error, not a part left out.
    package static func parquetParts(_ path: String) throws(InputError) -> [String]? {
        guard kind(path) == .directory else { return nil }
        var parts: [(relative: String, full: String)] = []
        var seen = Set<[UInt64]>()
        func walk(_ directory: String, _ relative: String) throws(InputError) {
            var st = stat()
            guard stat(directory, &st) == 0, seen.insert([UInt64(st.st_dev), UInt64(st.st_ino)]).inserted else { return }
            guard let dir = opendir(directory) else {
                throw InputError("cannot read \(directory), a directory under \(path): \(String(cString: strerror(errno)))")
            }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names {
                let full = directory + "/" + name, below = relative.isEmpty ? name : relative + "/" + name
                switch kind(full) {
                case .directory: try walk(full, below)
                case .regular where name.hasSuffix(".parquet"): parts.append((below, full))
                default: break
                }
            }
        }
        try walk(path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path, "")
        return parts.sorted { Array($0.relative.utf8).lexicographicallyPrecedes(Array($1.relative.utf8)) }.map(\.full)
    }

    /// Why `path` cannot be read as a source before anything opens it; nil when it may be
    /// (a regular file, a directory GDAL may read, a missing path or a non-file location).
    static func problem(_ path: String) -> String? {
        switch kind(path) {
        case .pipe:
            return "is a pipe, not a file: sources are read more than once, so pipes (e.g. <(…)) are not supported; write it to a file first"
        case .other:
            return "is a device, not a file: write it to a file first"
        case .linkLoop:
            return "is a symbolic-link loop (too many levels of symbolic links): make the link point at a file"
        default:
            return nil
        }
    }

    /// The reason to give when GDAL could not open an existing local `path`.
    static func openFailure(_ path: String) -> String? {
        kind(path) == .directory ? "is a directory, not a file, and GDAL reads no vector layer from it" : nil
    }
}
