import Foundation

/// The staging directories this process is writing, so an interrupted run (SIGINT, SIGTERM) can
/// remove its own before it exits. The lock is shared with `OutputDirectory.commit()`: a signal
/// handler sees a commit not yet begun or finished, never one half-way through its renames.
public enum ActiveStaging {
    /// Recursive: a commit registers the directory it moves the previous output to while holding it.
    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var paths: Set<String> = []

    static func add(_ path: String) { lock.withLock { _ = paths.insert(path) } }

    static func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }

    /// Runs `body` (a commit's renames) with no signal handler removing anything meanwhile.
    static func exclusively<T>(_ body: () throws(OutputError) -> T) throws(OutputError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// For a signal handler: removes this process's staging directories and ends it with `status`.
    /// The lock is never released, so no commit can start after the removal; _exit skips atexit
    /// handlers and buffered output, which another thread may be in the middle of.
    public static func abandonAndExit(status: Int32) -> Never {
        lock.lock()
        for p in paths { try? FileManager.default.removeItem(atPath: p) }
        _exit(status)
    }
}
