import Foundation
import XCTest
@testable import SyntheticCity

final class DeterminismTests: XCTestCase {
    private let files = [CityFileWriter.buildingsFile, CityFileWriter.addressesFile,
                         CityFileWriter.truthFile, CityFileWriter.summaryFile]

    func testSameSeedGivesByteIdenticalFiles() throws {
        let first = try TestSupport.temporaryDirectory("same-1")
        let second = try TestSupport.temporaryDirectory("same-2")
        try generateCity(config: CityConfig(buildings: 800, seed: 42), to: first)
        try generateCity(config: CityConfig(buildings: 800, seed: 42), to: second)
        for name in files {
            let a = try Data(contentsOf: first.appendingPathComponent(name))
            let b = try Data(contentsOf: second.appendingPathComponent(name))
            XCTAssertGreaterThan(a.count, 0, name)
            XCTAssertEqual(a, b, "\(name) differs between two runs with the same seed")
        }
    }

    func testDenseProfileIsByteIdenticalForTheSameSeedAndSize() throws {
        let first = try TestSupport.temporaryDirectory("dense-1")
        let second = try TestSupport.temporaryDirectory("dense-2")
        let otherSeed = try TestSupport.temporaryDirectory("dense-seed")
        let plain = try TestSupport.temporaryDirectory("dense-default")
        try generateCity(config: CityConfig(buildings: 2500, seed: 42, profile: .dense), to: first)
        try generateCity(config: CityConfig(buildings: 2500, seed: 42, profile: .dense), to: second)
        try generateCity(config: CityConfig(buildings: 2500, seed: 43, profile: .dense), to: otherSeed)
        try generateCity(config: CityConfig(buildings: 2500, seed: 42), to: plain)
        for name in files {
            let a = try Data(contentsOf: first.appendingPathComponent(name))
            XCTAssertGreaterThan(a.count, 0, name)
            XCTAssertEqual(a, try Data(contentsOf: second.appendingPathComponent(name)), "\(name) differs between two dense runs")
            XCTAssertNotEqual(a, try Data(contentsOf: otherSeed.appendingPathComponent(name)), "\(name) should depend on the seed")
            XCTAssertNotEqual(a, try Data(contentsOf: plain.appendingPathComponent(name)), "\(name) should depend on the profile")
        }
    }

    func testDifferentSeedGivesDifferentCity() throws {
        let first = try TestSupport.temporaryDirectory("seed-1")
        let second = try TestSupport.temporaryDirectory("seed-2")
        try generateCity(config: CityConfig(buildings: 800, seed: 1), to: first)
        try generateCity(config: CityConfig(buildings: 800, seed: 2), to: second)
        for name in [CityFileWriter.buildingsFile, CityFileWriter.addressesFile] {
            let a = try Data(contentsOf: first.appendingPathComponent(name))
            let b = try Data(contentsOf: second.appendingPathComponent(name))
            XCTAssertNotEqual(a, b, "\(name) should depend on the seed")
        }
    }

    func testGeneratorStreamIsReproducible() {
        var a = SeededGenerator(seed: 99), b = SeededGenerator(seed: 99), c = SeededGenerator(seed: 100)
        let first = (0..<8).map { _ in a.next() }
        XCTAssertEqual(first, (0..<8).map { _ in b.next() })
        XCTAssertNotEqual(first, (0..<8).map { _ in c.next() })
        for _ in 0..<1000 {
            let u = a.unit()
            XCTAssertTrue(u >= 0 && u < 1)
        }
    }
}
