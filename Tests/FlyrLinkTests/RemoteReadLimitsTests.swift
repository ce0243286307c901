import Foundation
import XCTest
@testable import FlyrLink

/// A remote read has an overall deadline and a minimum rate (`RemoteReadLimits`): a server that
/// stalls or trickles fails the run within the limits given, with one line naming the URL and
/// why, and nothing written.
final class RemoteReadLimitsTests: XCTestCase {
    var city: String { TestPaths.fixture("city2k") }

    /// A run over `server` with `limits`: what it said, how long it took, and whether --out exists after.
    func run(_ server: (base: String, log: URL), _ limits: [String], in dir: URL) throws -> (ProcessResult, TimeInterval, Bool) {
        let out = dir.appendingPathComponent("out")
        let started = Date()
        let r = try ProcessRunner.flyrLink(["run", "--buildings", "\(server.base)/buildings.snappy.parquet", "--addresses", "\(city)/addresses.zstd.parquet",
                                            "--out", out.path, "--quiet"] + limits)
        return (r, Date().timeIntervalSince(started), FileManager.default.fileExists(atPath: out.path))
    }

    func testAStalledServerFailsTheRunAtTheTimeout() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: city, dir: dir, slow: "stall", test: self)
        let (r, seconds, wrote) = try run(server, ["--remote-timeout", "2"], in: dir)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "flyr-link: error: buildings: \(server.base)/buildings.snappy.parquet: timed out: not read within 2 s (--remote-timeout)\n")
        XCTAssertLessThan(seconds, 10, "the deadline holds every attempt")
        XCTAssertGreaterThanOrEqual(seconds, 2)
        XCTAssertFalse(wrote)
    }

    func testATricklingServerIsCutForBeingTooSlow() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: city, dir: dir, slow: "trickle", test: self)
        let (r, seconds, wrote) = try run(server, ["--remote-min-rate", "100", "--remote-rate-window", "1"], in: dir)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr, "flyr-link: error: buildings: \(server.base)/buildings.snappy.parquet: too slow: under 100 bytes a second for 1 s "
                       + "(--remote-min-rate, --remote-rate-window) (after \(HTTPRangeSource.attempts) attempts)\n")
        XCTAssertLessThan(seconds, 20)
        XCTAssertFalse(wrote)
        // (The server logs a request once its next byte finds the connection gone.)
        let logged = Date().addingTimeInterval(5)
        while LoggedRequest.read(server.log).count < HTTPRangeSource.attempts, Date() < logged { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertEqual(LoggedRequest.read(server.log).map(\.range), Array(repeating: "bytes=-8", count: HTTPRangeSource.attempts),
                       "each attempt cut, then tried again")
        // Within a deadline shorter than the attempts would take: out of time.
        let (late, lateSeconds, _) = try run(server, ["--remote-min-rate", "100", "--remote-rate-window", "1", "--remote-timeout", "2"], in: dir)
        XCTAssertNotEqual(late.status, 0)
        XCTAssertTrue(late.stderr.hasSuffix(": timed out: not read within 2 s (--remote-timeout) (after 2 attempts)\n"), late.stderr)
        XCTAssertLessThan(lateSeconds, 8)
    }

    func testTheLimitsAreBoundedNumbersAsOptionsAndPipelineKeys() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let sources = ["--buildings", "\(city)/buildings.snappy.parquet", "--addresses", "\(city)/addresses.zstd.parquet"]
        for (option, value, says) in [("--remote-timeout", "0", "--remote-timeout (remote_timeout) must be whole seconds from 1 to 86400, not 0"),
                                      ("--remote-min-rate", "-5", "--remote-min-rate (remote_min_rate) must be bytes a second from 1 to 1000000000, not -5"),
                                      ("--remote-rate-window", "100000", "--remote-rate-window (remote_rate_window) must be whole seconds from 1 to 3600, not 100000")] {
            for command in [["run"] + sources + ["--out", dir.appendingPathComponent("out").path], ["inspect", "\(city)/buildings.snappy.parquet"]] {
                let r = try ProcessRunner.flyrLink(command + [option, value])
                XCTAssertNotEqual(r.status, 0)
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
                XCTAssertTrue(r.stderr.contains(says), r.stderr)
            }
        }
        let pipeline = dir.appendingPathComponent("p.toml")
        for (line, says) in [("remote_timeout = 0", "--remote-timeout (remote_timeout) must be whole seconds from 1 to 86400, not 0"),
                             ("remote_min_rate = \"fast\"", "'remote_min_rate' must be a whole number")] {
            try "buildings = \"\(city)/buildings.snappy.parquet\"\naddresses = \"\(city)/addresses.zstd.parquet\"\nout = \"out\"\n\(line)\n"
                .write(to: pipeline, atomically: true, encoding: .utf8)
            let r = try ProcessRunner.flyrLink(["run", pipeline.path])
            XCTAssertNotEqual(r.status, 0)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        // The keys reach the options (a plan carries them to its tiles).
        try "buildings = \"b.parquet\"\naddresses = \"a.parquet\"\nout = \"out\"\nremote_timeout = 7\nremote_rate_window = 3\n"
            .write(to: pipeline, atomically: true, encoding: .utf8)
        let options = try PipelineFile.load(pipeline.path).options()
        XCTAssertEqual(options.remote.timeout, 7)
        XCTAssertEqual(options.remote.rateWindow, 3)
        XCTAssertEqual(options.remote.minRate, RemoteReadLimits().minRate)
    }
}
