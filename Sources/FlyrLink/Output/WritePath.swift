import Foundation

/// Every path flyr-link writes (`--out`, `--write-evidence`, a snapshot's root, a plan, a tile's
/// decisions and parts) is judged here first, with symbolic links followed: it must not be an input,
/// hold one, hold the current directory, or be anything but a regular file or a directory.
public enum WritePath {
    enum Kind { case file, directory }

    /// A file a command replaces whole (a plan, a tile's decisions): refused, before anything is
    /// read, when it is a directory or special file, an input or holds one.
    public static func checkFile(_ path: String, role: String, inputs: [String]) throws(OutputError) {
        if try resolve(path, role: role, inputs: inputs).kind == .directory {
            throw OutputError("refusing to write \(path) (\(role)): it is a directory (give a file path)")
        }
    }

    package struct Found {
        /// The path with symbolic links followed: what a write replaces.
        var url: URL
        /// nil: nothing is there yet.
        var kind: Kind?
    }

    /// `role` names the option in messages (`--out`, `--write-evidence`, …). `writtenIn`: a directory
    /// the command adds to (a snapshot's root), not one it replaces: it may be the current directory.
    package static func resolve(_ path: String, role: String, inputs: [String], writtenIn: Bool = false) throws(OutputError) -> Found {
        let given = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        if lstat(given.path, &info) != 0 {
            guard errno == ENOENT || errno == ENOTDIR else { throw OutputError("cannot use \(given.path) as \(role): \(String(cString: strerror(errno)))") }
            try refuseMissingParent(given, role: role)
            return Found(url: given, kind: nil)
        }
        var url = given
        if info.st_mode & S_IFMT == S_IFLNK {
            guard let real = realPath(given.path) else {
                let why = errno == ELOOP ? "it is a loop of symbolic links"
                    : "it is a symbolic link to \(linkTarget(given.path) ?? "?"), which does not exist"
                throw OutputError("cannot use \(given.path) as \(role): \(why) (remove the link, or give the path it should name)")
            }
            url = URL(fileURLWithPath: real)
            guard stat(real, &info) == 0 else { throw OutputError("cannot use \(given.path) as \(role): \(String(cString: strerror(errno)))") }
        }
        let kind: Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .directory
        default:
            throw OutputError("refusing to write \(given.path) (\(role)): it is \(specialKind(info.st_mode)), not a regular file or directory")
        }
        let real = realPath(url.path) ?? url.path
        let refusing = writtenIn ? "refusing to write in" : "refusing to replace"
        if !writtenIn, let cwd = realPath("."), isSameOrInside(cwd, real) {
            throw OutputError("\(refusing) \(given.path) (\(role)): it is the current directory or one of its parents")
        }
        for input in inputs {
            guard let file = realPath(input), isSameOrInside(file, real) else { continue }
            let what = file == real ? "it is the input \(input)" : "it holds the input \(input)"
            throw OutputError("\(refusing) \(given.path) (\(role)): \(what)")
        }
        return Found(url: URL(fileURLWithPath: real), kind: kind)
    }

    /// A dangling link or a file in the way of the parent is named now, not as a failed mkdir later.
    private static func refuseMissingParent(_ url: URL, role: String) throws(OutputError) {
        var parent = url.deletingLastPathComponent()
        while parent.path != "/" {
            var info = stat()
            if lstat(parent.path, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK, realPath(parent.path) == nil {
                    throw OutputError("cannot use \(url.path) as \(role): \(parent.path) is a symbolic link to \(linkTarget(parent.path) ?? "?"), which does not exist")
                }
                if stat(parent.path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
                    throw OutputError("cannot use \(url.path) as \(role): \(parent.path) is not a directory")
                }
                return
            }
            parent = parent.deletingLastPathComponent()
        }
    }

    static func specialKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    static func isEmptyFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size == 0
    }

    /// A regular file itself, not a link to one.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    static func linkTarget(_ path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    /// Whether `path` is `dir` or lies inside it (both real paths).
    static func isSameOrInside(_ path: String, _ dir: String) -> Bool {
        path == dir || path.hasPrefix(dir == "/" ? "/" : dir + "/")
    }
}
