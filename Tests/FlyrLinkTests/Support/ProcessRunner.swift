import Foundation

/// Runs a command and captures its exit status, stdout and stderr.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum ProcessRunner {
    @discardableResult
    /// `environment`: variables added to this process's own.
    static func run(_ executable: String, _ arguments: [String], cwd: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        if !environment.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        // Output goes to temporary files: no pipe can fill up and block the child.
        let tmp = FileManager.default.temporaryDirectory
        let outURL = tmp.appendingPathComponent("flyr-out-\(UUID().uuidString)")
        let errURL = tmp.appendingPathComponent("flyr-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        p.standardInput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let outData = (try? Data(contentsOf: outURL)) ?? Data()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return ProcessResult(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    static func flyrLink(_ arguments: [String], cwd: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        try run(TestPaths.binary, arguments, cwd: cwd, environment: environment)
    }

    /// ogr2ogr from gdal-bin, to write test inputs in every format GDAL reads.
    static func ogr2ogr(_ arguments: [String]) throws {
        let r = try run("/usr/bin/ogr2ogr", arguments)
        if r.status != 0 { throw NSError(domain: "ogr2ogr", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
    }
}
