import XCTest
import SyntheticCity
@testable import FlyrLink

/// The Done-when numbers of the linker and the townhouse splitter, measured on a 20,000-building
/// synthetic city with ground truth (benchmarks/SyntheticCity), through the written files.
final class SyntheticCityEvaluationTests: XCTestCase {
    struct Scored {
        var run: LinkRun
        var result: EvaluationResult
        var units: UnitScore
    }

    static let seed: UInt64 = 2

    func scoredRun(strategy: LinkOptions.Strategy, maxDistance: Double? = nil) throws -> Scored {
        let dir = TestPaths.temporaryDirectory(self)
        let city = dir.appendingPathComponent("city")
        try generateCity(config: CityConfig(buildings: 20_000, seed: Self.seed), to: city)
        let out = dir.appendingPathComponent("out")
        var options = RunOptions(buildings: SourceSpec(location: city.appendingPathComponent("buildings.geojson").path),
                                 addresses: SourceSpec(location: city.appendingPathComponent("addresses.geojson").path),
                                 output: out.path)
        options.link.strategy = strategy
        if let maxDistance { options.link.maxDistance = maxDistance }
        let run = try LinkPipeline(options: options).run()
        try RunWriter.write(run)
        let truth = try loadTruth(from: city.appendingPathComponent("truth.csv"))
        let links = try loadLinks(from: out.appendingPathComponent("links.csv"))
        let units = try loadUnits(from: out.appendingPathComponent("units.geojson"))
        return Scored(run: run, result: evaluate(links: links, truth: truth), units: evaluateUnits(units: units, links: links, truth: truth))
    }

    func testLinkerBeatsTheNaiveBaselineAndMeetsItsTargets() throws {
        let flyr = try scoredRun(strategy: .flyr)
        let naive = try scoredRun(strategy: .naive, maxDistance: 30)
        let f = flyr.result.overall, n = naive.result.overall
        XCTAssertGreaterThan(flyr.run.buildings.count, 19_999)
        XCTAssertGreaterThanOrEqual(f.precision, 0.97, "precision")
        XCTAssertGreaterThanOrEqual(f.recall, 0.97, "recall")
        XCTAssertGreaterThanOrEqual(flyr.result.highConfidenceAccuracy, 0.98, "links with confidence ≥ 0.9")
        XCTAssertGreaterThan(f.precision, n.precision, "the naive baseline links vacant lots to the neighbours")
        XCTAssertGreaterThan(f.f1, n.f1)
        // Calibration: accuracy rises with the confidence band.
        let bands = flyr.result.confidenceBands.filter { $0.links >= 50 }
        for (lower, upper) in zip(bands, bands.dropFirst()) {
            XCTAssertLessThanOrEqual(lower.accuracy, upper.accuracy + 0.01, "\(lower.label) vs \(upper.label)")
        }
        print("synthetic city seed \(Self.seed): flyr precision \(f.precision) recall \(f.recall); naive precision \(n.precision) recall \(n.recall)")
    }

    func testTownhouseRowsAreSplitAndOthersAreNot() throws {
        let scored = try scoredRun(strategy: .flyr)
        let u = scored.units
        XCTAssertGreaterThan(u.townhouseRows, 1000)
        XCTAssertGreaterThanOrEqual(u.rowsSplitExactlyShare, 0.98, u.text)
        XCTAssertLessThanOrEqual(u.nonRowsSplitShare, 0.01, u.text)
        XCTAssertGreaterThanOrEqual(u.addressesInTrueUnitShare, 0.98, u.text)

        // Every split row is tiled by its slices: union area within 0.1%, overlaps ≤ 0.1%, none empty.
        let run = scored.run
        let context = GEOSContext()
        let transformer = try run.frame.makeTransformer()
        func metric(_ f: Footprint) -> Footprint { f.mapRings { var r = $0; transformer.forward(&r); return r } }
        var slicesOf: [Int: [Footprint]] = [:]
        for unit in run.units { slicesOf[unit.buildingIndex, default: []].append(metric(unit.footprint)) }
        var worstAreaError = 0.0, worstOverlap = 0.0
        for (b, slices) in slicesOf {
            let whole = metric(run.footprint(ofBuilding: b)).area
            let union = context.footprint(try context.unaryUnion(slices.map { try context.geometry($0) })).area
            worstAreaError = max(worstAreaError, abs(union - whole) / whole)
            for s in slices { XCTAssertGreaterThan(s.area, 0) }
            for i in slices.indices {
                for j in slices.indices where j > i && slices[i].bbox.intersects(slices[j].bbox) {
                    let overlap = context.footprint(try context.intersection(context.geometry(slices[i]), context.geometry(slices[j]))).area
                    worstOverlap = max(worstOverlap, overlap / whole)
                }
            }
        }
        XCTAssertLessThanOrEqual(worstAreaError, 0.001)
        XCTAssertLessThanOrEqual(worstOverlap, 0.001)
    }
}
