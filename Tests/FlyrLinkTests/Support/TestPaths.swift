import Foundation
import XCTest

/// Where the tests find the repository, the shared real data and the built binary.
enum TestPaths {
    /// The package root (the folder holding Package.swift).
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// `../shared/data` beside the checkout (or $FLYR_SHARED_DATA). Tests that need it fail without it.
    static func sharedData(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let base = ProcessInfo.processInfo.environment["FLYR_SHARED_DATA"]
            ?? root.deletingLastPathComponent().appendingPathComponent("shared/data").path
        let path = (base as NSString).appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: path) else {
            XCTFail("shared data missing: \(path)", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        return path
    }

    static func fixture(_ name: String) -> String {
        root.appendingPathComponent("Tests/FlyrLinkTests/Fixtures/\(name)").path
    }

    static var helsinkiBuildings: String { root.appendingPathComponent("data/helsinki/buildings.geojson").path }
    static var helsinkiAddresses: String { root.appendingPathComponent("data/helsinki/addresses.geojson").path }

    /// A real sample with townhouse rows (Fixtures/la-venice, cut from la_dev): Helsinki has none.
    static var rowsBuildings: String { fixture("la-venice/buildings.geojson") }
    static var rowsAddresses: String { fixture("la-venice/addresses.geojson") }

    /// The flyr-link executable built beside the test bundle.
    static var binary: String {
        let bundle = Bundle(for: BundleMarker.self).bundleURL
        for dir in [bundle, bundle.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("flyr-link").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return root.appendingPathComponent(".build/debug/flyr-link").path
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(_ test: XCTestCase) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-link-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}

final class BundleMarker {}
