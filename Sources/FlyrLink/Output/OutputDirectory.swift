import Foundation

/// An output directory written as a whole or not at all: files go to a hidden temporary sibling,
/// which then replaces the target in one atomic step (renameat2 RENAME_EXCHANGE on Linux), so a
/// failed or killed run leaves the previous output untouched and never half-written. Only a
/// directory flyr-link wrote (or an empty one) is replaced: see `OutputTarget`.
/// A killed run's temporary siblings are removed by the next run (`StagingLeftovers`).
package final class OutputDirectory {
    let target: URL
    package let staging: URL
    private var committed = false
    /// Holds the flock on the staging directory's marker: the staging directory is this run's.
    private let markerLock: Int32
    /// The previous output's marker, locked before the swap moves it into `staging`, so no other
    /// run takes the directory for a dead run's leftover while this one is still removing it.
    private var previousMarkerLock: Int32 = -1

    /// Fails, touching nothing, unless the target may be replaced (`OutputTarget`); `inputs` are
    /// the run's input locations, never to be replaced.
    /// `format`: `.gpkg` stages the files that one GeoPackage is made of, and `commitFile` puts it in place.
    package init(path: String, overwrite: Bool = false, inputs: [String] = [], format: OutputFormat = .dir) throws(OutputError) {
        // Through a symbolic link, the directory it names is replaced, not the link.
        target = try OutputTarget.check(path: path, overwrite: overwrite, inputs: inputs, format: format)
        let parent = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OutputError("cannot create \(parent.path): \(error.localizedDescription)")
        }
        StagingLeftovers.clean(target)
        staging = parent.appendingPathComponent(".\(target.lastPathComponent).tmp-\(getpid())")
        try? FileManager.default.removeItem(at: staging)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw OutputError("cannot write in \(parent.path): \(error.localizedDescription)")
        }
        ActiveStaging.add(staging.path)
        do {
            markerLock = try OutputMarker.writeLocked(in: staging)
        } catch {
            ActiveStaging.remove(staging.path)
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(at: staging) }
        ActiveStaging.remove(staging.path)
        close(markerLock)
        if previousMarkerLock >= 0 { close(previousMarkerLock) }
    }

    package func path(_ name: String) -> String { staging.appendingPathComponent(name).path }

    /// Puts the staged files in place of the target. With the signal handlers' lock held
    /// (`ActiveStaging`): an interrupt removes the staging directory before or after, never between renames.
    package func commit() throws(OutputError) {
        let old = staging.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).old-\(getpid())")
        let previous = try ActiveStaging.exclusively { () throws(OutputError) -> URL? in
            if !FileManager.default.fileExists(atPath: target.path) {
                guard rename(staging.path, target.path) == 0 else {
                    throw OutputError("cannot move output into \(target.path): \(String(cString: strerror(errno)))")
                }
                committed = true
                return nil
            }
            lockPreviousMarker()
            if AtomicRename.exchange(staging.path, target.path) {
                committed = true
                return staging  // now holds the previous output
            }
            // No RENAME_EXCHANGE here: move the old one aside, then the new one in.
            guard rename(target.path, old.path) == 0 else {
                throw OutputError("cannot replace \(target.path): \(String(cString: strerror(errno)))")
            }
            ActiveStaging.add(old.path)
            guard rename(staging.path, target.path) == 0 else {
                let message = String(cString: strerror(errno))
                ActiveStaging.remove(old.path)
                _ = rename(old.path, target.path)  // the previous output back in place
                throw OutputError("cannot replace \(target.path): \(message)")
            }
            committed = true
            return old
        }
        if let previous {
            do {
                try FileManager.default.removeItem(at: previous)
            } catch {
                let why = (error as NSError).localizedFailureReason ?? error.localizedDescription
                FileHandle.standardError.write(Data(("flyr-link: warning: the new output is in place, but the previous one, now at \(previous.path), "
                    + "could not be removed (\(why)): remove it by hand\n").utf8))
            }
            ActiveStaging.remove(previous.path)
        }
    }

    /// `error` with the staging directory's paths named by the target's (the staging is removed
    /// with the failure), saying the previous output was kept.
    func namingTarget(_ error: any Error) -> OutputError {
        let text = String(describing: error).replacingOccurrences(of: staging.path + "/", with: "")
        return OutputError("\(text); nothing was replaced at \(target.path)")
    }

    /// Puts the staged file `name` in place of the target (a file: a GeoPackage), by rename(2),
    /// which replaces a previous file atomically; the rest of the staging directory is removed.
    package func commitFile(_ name: String) throws(OutputError) {
        try ActiveStaging.exclusively { () throws(OutputError) in
            guard rename(path(name), target.path) == 0 else {
                throw OutputError("cannot move output into \(target.path): \(String(cString: strerror(errno)))")
            }
        }
        try? FileManager.default.removeItem(at: staging)
    }

    private func lockPreviousMarker() {
        let fd = open(target.appendingPathComponent(OutputMarker.name).path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { previousMarkerLock = fd } else { close(fd) }
    }
}

/// renameat2(2) with RENAME_EXCHANGE, looked up at run time (Glibc's Swift module does not export it).
enum AtomicRename {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let function: RenameAt2? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(sym, to: RenameAt2.self)
    }()

    static func exchange(_ a: String, _ b: String) -> Bool {
        guard let f = function else { return false }
        let AT_FDCWD: Int32 = -100
        let RENAME_EXCHANGE: UInt32 = 1 << 1
        return f(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0
    }
}
