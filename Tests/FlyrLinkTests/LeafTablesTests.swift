import XCTest
@testable import FlyrLink
import SyntheticCity

/// The trees scored as leaf tables (in AVX-512 vectors where the processor has them, and by the
/// portable kernel) give a plain walk of the file's nodes to the bit: on fit.py's check rows, on rows
/// whose features sit on a threshold, beside it or are NaN, for any count of candidates, with and
/// without a run's fixed features, and for trees of up to 64 leaves.
final class LeafTablesTests: XCTestCase {
    /// The probability by walking the file's trees node by node (NaN goes right, as `Tree` says).
    func walked(_ stage: TreeEnsemble, _ x: [Double]) -> Double {
        var sum = stage.baseline
        for tree in stage.trees {
            var k = 0
            while tree.feature[k] >= 0 { k = x[tree.feature[k]] <= tree.threshold[k] ? tree.left[k] : tree.right[k] }
            sum += tree.value[k]
        }
        return 1 / (1 + exp(-sum))
    }

    /// Each of `rows` scored in groups of `count`, by both kernels, beside the walk; `fixed` holds
    /// the values the stage was fixed to (the rows carry them).
    func assertScoresAsWalked(_ stage: TreeEnsemble, rows: [[Double]], fixed: [Int: Double] = [:], file: StaticString = #filePath,
                              line: UInt = #line) {
        let rows = rows.map { row in fixed.reduce(into: row) { $0[$1.key] = $1.value } }
        let expected = rows.map { walked(stage, $0).bitPattern }
        for count in [1, 2, 5, 6, 8, 9, 17] {
            for start in stride(from: 0, to: rows.count - count, by: count) {
                let x = rows[start..<start + count].flatMap { $0 }
                var fast = [Double](repeating: 0, count: count), portable = fast
                x.withUnsafeBufferPointer { x in
                    fast.withUnsafeMutableBufferPointer { stage.probabilities(x, count: count, into: $0) }
                    portable.withUnsafeMutableBufferPointer { p in
                        stage.leafTables.sums(baseline: stage.baseline, rows: x.baseAddress!, count: count, width: stage.width,
                                              into: p.baseAddress!, portable: true)
                        for i in 0..<count { p[i] = 1 / (1 + exp(-p[i])) }
                    }
                }
                let want = Array(expected[start..<start + count])
                XCTAssertEqual(fast.map(\.bitPattern), want, "rows \(start)..<\(start + count)", file: file, line: line)
                XCTAssertEqual(portable.map(\.bitPattern), want, "rows \(start)..<\(start + count), portable", file: file, line: line)
            }
        }
    }

    /// The check rows, then each split's threshold, its neighbours and NaN put into check rows.
    func rows(for stage: TreeEnsemble) throws -> [[Double]] {
        let check = try String(contentsOfFile: TestPaths.root.appendingPathComponent("benchmarks/link-model/check.csv").path, encoding: .utf8)
            .split(separator: "\n").dropFirst().prefix(300).map { Array($0.split(separator: ",").map { Double($0)! }.prefix(stage.width)) }
        var rows = check
        var random = SeededGenerator(seed: 7)
        for tree in stage.trees {
            for (k, f) in tree.feature.enumerated() where f >= 0 {
                for value in [tree.threshold[k], tree.threshold[k].nextUp, tree.threshold[k].nextDown, .nan] {
                    var row = check[Int(random.next() % UInt64(check.count))]
                    row[f] = value
                    rows.append(row)
                }
            }
        }
        return rows
    }

    func testTheShippedModelScoresAsWalked() throws {
        let model = LinkModel.standard
        let fixed = [CandidateFeature.runShareInside.rawValue: 0.31, CandidateFeature.runMedianNearest.rawValue: 4.5]
        for stage in [model.first, model.second!] {
            let rows = try rows(for: stage)
            XCTAssertGreaterThan(rows.count, 1000)
            assertScoresAsWalked(stage, rows: rows)
            assertScoresAsWalked(stage.specialized(fixed), rows: rows, fixed: fixed)
        }
    }

    /// Trees of more than eight leaves (their leaves gathered, not picked from a register), up to 64.
    func testTreesOfUpTo64LeavesScoreAsWalked() throws {
        // A chain of `splits` splits on feature k % 3 at threshold k: splits + 1 leaves.
        func chain(_ splits: Int) -> TreeEnsemble.Tree {
            var feature: [Int] = [], threshold: [Double] = [], left: [Int] = [], right: [Int] = [], value: [Double] = []
            for k in 0..<splits {
                feature += [k % 3, -1]; threshold += [Double(k), 0]; value += [0, Double(k) / 7]
                left += [2 * k + 1, 0]; right += [2 * k + 2, 0]
            }
            feature.append(-1); threshold.append(0); left.append(0); right.append(0); value.append(-1)
            return TreeEnsemble.Tree(feature: feature, threshold: threshold, left: left, right: right, value: value)
        }
        let stage = TreeEnsemble(width: 3, baseline: 0.25, trees: [chain(9), chain(3), chain(63), chain(0), chain(7)], fixed: [:])
        var random = SeededGenerator(seed: 11)
        let rows = (0..<400).map { _ in (0..<3).map { _ in Double(random.next() % 700) / 10 - 2 } } + [[.nan, 1, 2], [70, 70, .nan]]
        assertScoresAsWalked(stage, rows: rows)
    }

    func testAModelWithATreeOfMoreThan64LeavesIsRefused() throws {
        let splits = 64
        var feature: [Int] = [], threshold: [Double] = [], left: [Int] = [], right: [Int] = [], value: [Double] = []
        for k in 0..<splits {
            feature += [0, -1]; threshold += [Double(k), 0]; value += [0, 0]
            left += [2 * k + 1, 0]; right += [2 * k + 2, 0]
        }
        feature.append(-1); threshold.append(0); left.append(0); right.append(0); value.append(0)
        let names = CandidateFeatures.names.map { "\"\($0)\"" }.joined(separator: ",")
        let json = """
        {"format":"flyr-link-model","version":2,"features":[\(names)],"baseline":0,
         "trees":[{"feature":\(feature),"threshold":\(threshold),"left":\(left),"right":\(right),"value":\(value)}],
         "calibration":[{"share_inside_below":1.01,"x":[0,1],"y":[0,1]}]}
        """
        XCTAssertThrowsError(try LinkModel(json: Data(json.utf8), source: "big.json")) { error in
            XCTAssertEqual((error as? InputError)?.message, "link model big.json: a tree of 65 leaves; flyr-link scores trees of at most 64")
        }
    }
}
