import Foundation

/// `ROOT/<campaign>/`: one directory per version (`v000001`, `v000002`, …), `current` a symlink
/// naming the newest complete one, `.lock` held with flock(2) during a regeneration, and hidden
/// staging directories (`.staging-…`) that become a version by one rename(2) when complete.
///
/// A version is published when `current` names it. Anything else a killed run can leave behind —
/// a staging directory, a `current.tmp-PID` link, a complete version that `current` never came to
/// name — is hidden or is removed by the next regeneration before it does anything else.
struct CampaignDirectory {
    let url: URL
    let campaign: String

    static let versionPrefix = "v"
    static let currentName = "current"

    init(root: URL, campaign: String) {
        self.campaign = campaign
        url = root.appendingPathComponent(campaign)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    static func versionName(_ n: Int) -> String { versionPrefix + String(format: "%06d", n) }

    static func versionNumber(_ name: String) -> Int? {
        guard name.count == 7, name.hasPrefix(versionPrefix) else { return nil }
        return Int(name.dropFirst())
    }

    /// Version directories, oldest first.
    func versions() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { Self.versionNumber($0) != nil }.sorted()
    }

    /// The version `current` names, if it names one that exists.
    func current() -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path(Self.currentName)) else { return nil }
        let name = (target as NSString).lastPathComponent
        guard Self.versionNumber(name) != nil, FileManager.default.fileExists(atPath: path(name)) else { return nil }
        return name
    }

    /// The lowest version number not yet used.
    func nextVersion() -> String {
        let used = versions().compactMap(Self.versionNumber).max() ?? 0
        return Self.versionName(used + 1)
    }

    /// Removes what a failed or killed run left: staging and trash directories, temporary links, and
    /// versions newer than `current` (complete, but never published). Call with the lock held.
    @discardableResult
    func removeLeftovers() -> [String] {
        let fm = FileManager.default
        var removed: [String] = []
        let names = (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
        for name in names.sorted() where name.hasPrefix(".staging-") || name.hasPrefix(".trash-") || name.hasPrefix("current.tmp-") {
            if (try? fm.removeItem(atPath: path(name))) != nil { removed.append(name) }
        }
        // Only with a valid `current` can a version be known to be unpublished; without one
        // (never published, or the link removed by hand) no complete version is touched.
        guard let published = current().flatMap(Self.versionNumber) else { return removed }
        for v in versions() where Self.versionNumber(v)! > published {
            if discard(v) { removed.append(v) }
        }
        return removed
    }

    /// Removes a version: first renamed to a hidden name (one atomic step), then deleted.
    @discardableResult
    func discard(_ version: String) -> Bool {
        let trash = path(".trash-\(version)-\(getpid())")
        guard rename(path(version), trash) == 0 else { return false }
        try? FileManager.default.removeItem(atPath: trash)
        return true
    }

    /// Moves a complete staging directory into place as `version`, then points `current` at it.
    func publish(staging: URL, as version: String) throws(OutputError) {
        guard rename(staging.path, path(version)) == 0 else {
            throw OutputError("cannot move \(staging.path) to \(path(version)): \(String(cString: strerror(errno)))")
        }
        syncDirectory()
        TestPause.point("published")
        let temporary = path("current.tmp-\(getpid())")
        unlink(temporary)
        guard symlink(version, temporary) == 0 else {
            throw OutputError("cannot create \(temporary): \(String(cString: strerror(errno)))")
        }
        guard rename(temporary, path(Self.currentName)) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw OutputError("cannot switch \(path(Self.currentName)) to \(version): \(message)")
        }
        syncDirectory()
    }

    /// Keeps the newest `keep` versions (and always the current one); returns the versions removed.
    func prune(keep: Int) -> [String] {
        let all = versions()
        let current = current()
        guard all.count > keep else { return [] }
        var removed: [String] = []
        for v in all.dropLast(keep) where v != current {
            if discard(v) { removed.append(v) }
        }
        return removed
    }

    func syncDirectory() {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}

/// `ROOT/<campaign>/.lock`, held with flock(2) for the whole regeneration. The kernel releases it
/// when the holder exits or is killed, so a dead process never holds it; the file itself stays and
/// names the pid of the last holder.
final class CampaignLock {
    private let fd: Int32

    init(directory: CampaignDirectory) throws(OutputError) {
        let path = directory.path(".lock")
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            let pid = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
            guard busy else { throw OutputError("cannot lock \(path): \(String(cString: strerror(errno)))") }
            throw OutputError("campaign \(directory.campaign) is being regenerated by another process (pid \(pid.isEmpty ? "unknown" : pid))")
        }
        self.fd = fd
        let text = Array("\(getpid())\n".utf8)
        ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
