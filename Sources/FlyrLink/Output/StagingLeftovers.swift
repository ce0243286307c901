import Foundation

/// Temporary siblings of an output directory (`.NAME.tmp-PID`, `.NAME.old-PID`) that a killed run
/// left behind. Such a sibling is stale when its owner is gone: the flock on its marker can be taken
/// (`OutputMarker`), or — with no marker, as a run killed before writing it or an earlier version
/// leaves — no process has its PID. A sibling whose owner may be alive is never touched.
enum StagingLeftovers {
    /// Removes the stale siblings of `target`; returns their names. A stale `.old-` sibling while the
    /// target is missing is a previous output moved aside by a commit that was killed half-way (no
    /// renameat2): it is moved back instead.
    @discardableResult
    static func clean(_ target: URL) -> [String] {
        let parent = target.deletingLastPathComponent()
        let name = target.lastPathComponent
        let fm = FileManager.default
        var removed: [String] = []
        for entry in ((try? fm.contentsOfDirectory(atPath: parent.path)) ?? []).sorted() {
            guard let pid = ownerPID(entry, of: name), pid != getpid() else { continue }
            let url = parent.appendingPathComponent(entry)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isDir), isDir.boolValue else { continue }
            withOwnerGone(url, pid: pid) {
                if entry.hasPrefix(".\(name).old-"), !fm.fileExists(atPath: target.path), rename(url.path, target.path) == 0 { return }
                if (try? fm.removeItem(at: url)) != nil { removed.append(entry) }
            }
        }
        return removed
    }

    /// The PID suffix of `.NAME.tmp-PID` / `.NAME.old-PID`; nil for any other name.
    static func ownerPID(_ entry: String, of name: String) -> pid_t? {
        for kind in ["tmp", "old"] {
            let prefix = ".\(name).\(kind)-"
            if entry.hasPrefix(prefix), let pid = pid_t(entry.dropFirst(prefix.count)), pid > 0 { return pid }
        }
        return nil
    }

    /// Runs `body` if the sibling's owner is gone, holding its marker's lock meanwhile.
    static func withOwnerGone(_ dir: URL, pid: pid_t, _ body: () -> Void) {
        let fd = open(dir.appendingPathComponent(OutputMarker.name).path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            defer { close(fd) }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { body() }
            return
        }
        // No marker: the owner died before writing it, or predates it. ESRCH: no such process
        // (EPERM is a live process of another user).
        if kill(pid, 0) != 0, errno == ESRCH { body() }
    }
}
