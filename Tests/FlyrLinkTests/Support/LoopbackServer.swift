import Foundation
import XCTest

/// A test server on 127.0.0.1 run as a child process (a Python script under Tests/Support/),
/// stopped by its pid at the end of the test. The script writes `infoFile` once it is listening.
final class LoopbackServer {
    let process = Process()
    let infoFile: URL

    /// Starts `python script arguments…`; `infoFile` is where the script writes its port (or JSON).
    init(python: String = "/usr/bin/python3", script: String, arguments: [String], infoFile: URL, test: XCTestCase) throws {
        self.infoFile = infoFile
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [TestPaths.root.appendingPathComponent("Tests/Support/\(script)").path] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let log = infoFile.appendingPathExtension("stderr")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let process = self.process
        test.addTeardownBlock {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: infoFile.path) {
            guard process.isRunning, Date() < deadline else {
                let err = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw NSError(domain: "LoopbackServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(script) did not start: \(err)"])
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    var info: String { (try? String(contentsOf: infoFile, encoding: .utf8)) ?? "" }

    /// Tests/Support/range_server.py serving `root` (Range requests, a request log): its base URL and log.
    /// `slow`: "stall" (no answer) or "trickle" (two bytes a second).
    static func rangeServer(root: String, dir: URL, failFirst: Int = 0, resetFirst: Int = 0, slow: String? = nil,
                            test: XCTestCase) throws -> (base: String, log: URL) {
        let id = UUID().uuidString
        let log = dir.appendingPathComponent("requests-\(id).log"), port = dir.appendingPathComponent("port-\(id)")
        let server = try LoopbackServer(script: "range_server.py",
                                        arguments: ["--root", root, "--log", log.path, "--fail-first", String(failFirst),
                                                    "--reset-first", String(resetFirst), "--port-file", port.path] + (slow.map { ["--\($0)"] } ?? []),
                                        infoFile: port, test: test)
        return ("http://127.0.0.1:\(server.info)", log)
    }
}

/// One line of range_server.py's request log: `METHOD path range status body_bytes`.
struct LoggedRequest {
    let path: String, range: String, status: Int, bytes: Int

    static func read(_ log: URL) -> [LoggedRequest] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: " ")
            guard f.count == 5, let status = Int(f[3]), let bytes = Int(f[4]) else { return nil }
            return LoggedRequest(path: String(f[1]), range: String(f[2]), status: status, bytes: bytes)
        }
    }
}
