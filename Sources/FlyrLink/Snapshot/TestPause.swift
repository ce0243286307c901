import Foundation

/// A hook for the killed-run tests: with `FLYR_TEST_PAUSE_AT=<point>` in the environment the
/// snapshot and run commands announce the point on stderr and sleep there until killed, so a test
/// can kill them at exactly that moment. Snapshot points: locked, linked, written, staged, published;
/// run: staged (every file written to the staging directory, not yet swapped in).
enum TestPause {
    static let variable = "FLYR_TEST_PAUSE_AT"

    static func point(_ name: String) {
        guard ProcessInfo.processInfo.environment[variable] == name else { return }
        FileHandle.standardError.write(Data("flyr-link: test pause at \(name) (pid \(getpid()))\n".utf8))
        while true { sleep(3600) }
    }
}
