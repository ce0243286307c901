import Foundation
import XCTest
@testable import FlyrLink

/// A small campaign for the snapshot tests: six detached houses in a row (10 m × 10 m, 20 m
/// apart), one address inside each and a second flat of the third house in front of it (5 B: an
/// even number there would be the house across the street, which the link model leaves
/// unlinked), and a territory around them.
struct SnapshotFixture {
    static let campaign = "0d5c2f8a-4b61-5e3c-9a7d-1f2e3c4b5a69"

    let dir: URL
    var scene = TownhouseTests.Scene()

    init(dir: URL) {
        self.dir = dir
        for k in 0..<6 {
            let x = 20 * Double(k)
            scene.buildings.append(("b\(k)", TownhouseTests.rect(x, 0, x + 10, 10)))
            scene.addresses.append(("a\(k)", String(2 * k + 1), "Quay Street", nil, x + 5, 5))
        }
        scene.addresses.append(("p2", "5", "Quay Street", "B", 45, -4))
    }

    var buildings: String { dir.appendingPathComponent("b.geojson").path }
    var addresses: String { dir.appendingPathComponent("a.geojson").path }
    var root: URL { dir.appendingPathComponent("snapshots") }
    var campaignDir: URL { root.appendingPathComponent(Self.campaign) }
    var territory: String { dir.appendingPathComponent("territory.geojson").path }

    /// Writes the sources and a territory covering (x0, y0)–(x1, y1) metres.
    func write(territory rect: (Double, Double, Double, Double) = (-20, -20, 130, 30)) throws {
        _ = try scene.write(to: dir)
        try Self.polygonFile(rect).write(toFile: territory, atomically: true, encoding: .utf8)
    }

    static func polygonFile(_ r: (Double, Double, Double, Double)) -> String {
        let ring = [(r.0, r.1), (r.2, r.1), (r.2, r.3), (r.0, r.3), (r.0, r.1)].map { TownhouseTests.Scene.lonLat($0.0, $0.1) }
        return #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[\#(ring.joined(separator: ","))]]}}]}"#
    }

    var arguments: [String] {
        ["snapshot", "--campaign", Self.campaign, "--territory", territory, "--buildings", buildings,
         "--addresses", addresses, "--root", root.path]
    }

    func version(_ name: String) -> URL { campaignDir.appendingPathComponent(name) }

    /// The version `current` names.
    func current() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: campaignDir.appendingPathComponent("current").path))
            .map { ($0 as NSString).lastPathComponent }
    }

    /// Entries of the campaign directory a reader sees (not hidden).
    func visibleEntries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: campaignDir.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// address id → (building id, link id) of a version's links.csv.
    func links(_ version: String) throws -> [String: (building: String, id: String)] {
        var out: [String: (building: String, id: String)] = [:]
        for row in try OutputFiles.csv(self.version(version).appendingPathComponent("links.csv").path) {
            out[row["address_id"]!] = (row["building_id"]!, row["id"]!)
        }
        return out
    }

    func json(_ version: String, _ file: String) throws -> [String: Any] {
        let data = try Data(contentsOf: self.version(version).appendingPathComponent(file))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Every visible version is complete: it has a manifest whose checksums verify.
    func assertOnlyCompleteVersionsVisible(file: StaticString = #filePath, line: UInt = #line) {
        for name in visibleEntries() where name != "current" {
            XCTAssertNotNil(CampaignDirectory.versionNumber(name), "unexpected entry \(name)", file: file, line: line)
            XCTAssertEqual(SnapshotManifest.verify(version(name)), [], "version \(name)", file: file, line: line)
        }
    }
}

/// The built flyr-link started in the background with extra environment, stderr to a file.
final class BackgroundProcess {
    let process = Process()
    private let errURL: URL
    private let outURL: URL

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let tmp = FileManager.default.temporaryDirectory
        errURL = tmp.appendingPathComponent("flyr-bg-err-\(UUID().uuidString)")
        outURL = tmp.appendingPathComponent("flyr-bg-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: TestPaths.binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: errURL)
        try? FileManager.default.removeItem(at: outURL)
    }

    var pid: Int32 { process.processIdentifier }
    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    /// Waits until stderr contains `text` (or the process ends, or `timeout` passes).
    func waitFor(_ text: String, timeout: TimeInterval = 60) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if stderr.contains(text) { return true }
            if !process.isRunning { return stderr.contains(text) }
            usleep(20_000)
        }
        return false
    }

    func killNow() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
