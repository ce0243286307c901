import Foundation

/// `.flyr-link-output`: the file every output directory flyr-link writes carries, so a later run
/// can tell its own output (which it may replace) from a directory of the user's (which it may not).
///
/// While a run is staging, it holds an exclusive flock(2) on the marker in its staging directory:
/// the kernel drops the lock when the process ends however it ends, so a staging directory whose
/// marker can be locked belongs to nobody (see `StagingLeftovers`).
enum OutputMarker {
    static let name = ".flyr-link-output"
    static let formatVersion = 1
    static var text: String { "flyr-link output directory, format \(formatVersion)\n" }

    /// Writes the marker into `dir` and locks it; the returned descriptor holds the lock until closed.
    static func writeLocked(in dir: URL) throws(OutputError) -> Int32 {
        let path = dir.appendingPathComponent(name).path
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError("cannot write \(path): \(String(cString: strerror(errno)))") }
        // A staging directory just made under this process's own name: nobody else can hold it.
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw OutputError("cannot lock \(path): \(message)")
        }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw OutputError("cannot write \(path): \(message)")
        }
        return fd
    }

    static func isPresent(in dir: URL) -> Bool {
        FileManager.default.fileExists(atPath: dir.appendingPathComponent(name).path)
    }
}
