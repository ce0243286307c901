import Foundation

/// A hook for the killed-run tests: with `FLYR_TEST_PAUSE_AT=<point>` in the environment the
/// snapshot command announces the point on stderr and sleeps there until it is killed, so a test
/// can kill it at exactly that moment. Points: locked, linked, written, staged, published.
enum TestPause {
    static let variable = "FLYR_TEST_PAUSE_AT"

    static func point(_ name: String) {
        guard ProcessInfo.processInfo.environment[variable] == name else { return }
        FileHandle.standardError.write(Data("flyr-link: test pause at \(name) (pid \(getpid()))\n".utf8))
        while true { sleep(3600) }
    }
}
