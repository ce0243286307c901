import XCTest
@testable import FlyrLink

/// The link model as data: the compiled-in model is the repository's model file, it scores as
/// scikit-learn does, malformed files are refused with one line, and the decision it drives
/// holds on real data.
final class LinkModelTests: XCTestCase {
    private var modelPath: String { TestPaths.root.appendingPathComponent("benchmarks/link-model/link-model.json").path }

    func testTheCompiledInModelIsTheModelFile() throws {
        let file = try String(contentsOfFile: modelPath, encoding: .utf8)
        XCTAssertEqual(LinkModelFile.json.trimmingCharacters(in: .whitespacesAndNewlines), file.trimmingCharacters(in: .whitespacesAndNewlines),
                       "run scripts/gen-link-model.sh after fitting")
        XCTAssertEqual(LinkModel.standard.first.trees.count, try LinkModel(path: modelPath).first.trees.count)
        XCTAssertEqual(LinkModel.standard.second?.trees.count, try LinkModel(path: modelPath).second?.trees.count)
    }

    /// fit.py writes rows of both stages' features with scikit-learn's probabilities beside the model.
    func testProbabilitiesAgreeWithScikitLearn() throws {
        let text = try String(contentsOfFile: TestPaths.root.appendingPathComponent("benchmarks/link-model/check.csv").path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.first.map { $0.split(separator: ",").map(String.init) },
                       CompetingClaims.secondStageNames + ["first_probability", "probability"])
        XCTAssertGreaterThan(lines.count, 500)
        let second = try XCTUnwrap(LinkModel.standard.second, "the shipped model has a second stage")
        var worst = 0.0
        for line in lines.dropFirst() {
            let values = line.split(separator: ",").map { Double($0)! }
            let wide = Array(values.prefix(CompetingClaims.secondStageNames.count))
            let first = LinkModel.standard.first.probability(Array(wide.prefix(CandidateFeatures.names.count)))
            worst = max(worst, abs(first - values[values.count - 2]), abs(second.probability(wide) - values[values.count - 1]))
        }
        XCTAssertLessThan(worst, 1e-12)
    }

    func testSeveralCandidatesScoreAsEachAlone() throws {
        let rows = try String(contentsOfFile: TestPaths.root.appendingPathComponent("benchmarks/link-model/check.csv").path, encoding: .utf8)
            .split(separator: "\n").dropFirst().prefix(6).map { $0.split(separator: ",").dropLast(2).map { Double($0)! } }
        for stage in [LinkModel.standard.first, LinkModel.standard.second!] {
            let own = rows.map { Array($0.prefix(stage.width)) }
            var together = [Double](repeating: 0, count: rows.count)
            own.flatMap { $0 }.withUnsafeBufferPointer { x in together.withUnsafeMutableBufferPointer { stage.probabilities(x, count: rows.count, into: $0) } }
            XCTAssertEqual(together, own.map { stage.probability($0) })
        }
    }

    /// The calibration is chosen by the run's share of points inside a footprint, and is linear
    /// between its steps (numpy.interp), clipped at the ends.
    func testCalibrationByShareInside() throws {
        let json = """
        {"format":"flyr-link-model","version":2,"features":\(names),"baseline":0,
         "trees":[{"feature":[-1],"threshold":[0],"left":[0],"right":[0],"value":[0]}],
         "calibration":[{"share_inside_below":0.25,"x":[0.2,0.6],"y":[0.1,0.5]},{"share_inside_below":1.01,"x":[0,1],"y":[0,1]}]}
        """
        let model = try LinkModel(json: Data(json.utf8), source: "test")
        XCTAssertEqual(model.confidence(0.4, shareInside: 0.1), 0.3, accuracy: 1e-12)
        XCTAssertEqual(model.confidence(0.1, shareInside: 0.1), 0.1)
        XCTAssertEqual(model.confidence(0.9, shareInside: 0.1), 0.5)
        XCTAssertEqual(model.confidence(0.4, shareInside: 0.9), 0.4, accuracy: 1e-12)
        XCTAssertEqual(model.first.probability([Double](repeating: 0, count: CandidateFeatures.names.count)), 0.5)
    }

    private var names: String { "[" + CandidateFeatures.names.map { "\"\($0)\"" }.joined(separator: ",") + "]" }

    func testMalformedModelsAreRefusedWithOneLine() {
        let tree = #"{"feature":[0,-1,-1],"threshold":[1,0,0],"left":[1,0,0],"right":[2,0,0],"value":[0,1,-1]}"#
        let calibration = #"[{"share_inside_below":1.01,"x":[0,1],"y":[0,1]}]"#
        func model(format: String = "flyr-link-model", version: Int = 2, features: String? = nil, tree t: String? = nil,
                   calibration c: String? = nil, secondStage: String? = nil) -> String {
            let second = secondStage.map { #","second_stage":{"features":\#($0),"baseline":0,"trees":[\#(tree)]}"# } ?? ""
            return """
            {"format":"\(format)","version":\(version),"features":\(features ?? names),"baseline":0,"trees":[\(t ?? tree)]\(second),"calibration":\(c ?? calibration)}
            """
        }
        let secondNames = "[" + CompetingClaims.secondStageNames.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        XCTAssertNoThrow(try LinkModel(json: Data(model(version: 3, secondStage: secondNames).utf8), source: "m"))
        XCTAssertNoThrow(try LinkModel(json: Data(model().utf8), source: "m"))
        let cases: [(String, String)] = [
            ("{", "not a flyr-link model file"),
            (model(format: "other"), "this flyr-link reads flyr-link-model versions 2 and 3"),
            (model(version: 1), "version 1"),
            (model(secondStage: secondNames), "version 2 has no second stage"),
            (model(version: 3, secondStage: names), "second stage fitted on features"),
            (model(features: #"["distance_m"]"#), "fitted on features distance_m"),
            (model(tree: #"{"feature":[0],"threshold":[1],"left":[5],"right":[6],"value":[0]}"#), "a malformed tree"),
            (model(tree: #"{"feature":[0,-1,-1],"threshold":[1,0,0],"left":[0,0,0],"right":[2,0,0],"value":[0,1,-1]}"#), "a malformed tree"),
            (model(calibration: #"[{"share_inside_below":0.5,"x":[0,1],"y":[0,1]}]"#), "a malformed calibration"),
            (model(calibration: #"[{"share_inside_below":1.01,"x":[1,0],"y":[0,1]}]"#), "a malformed calibration"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try LinkModel(json: Data(json.utf8), source: "m.json")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.contains(expected) && message.contains("m.json") && !message.contains("\n"), message)
            }
        }
    }

    func testAMissingOrBadModelFileStopsTheRunWithOneLine() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let bad = dir.appendingPathComponent("bad.json").path
        try Data("{\"format\":\"x\"}".utf8).write(to: URL(fileURLWithPath: bad))
        for path in [bad, dir.appendingPathComponent("missing.json").path] {
            let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                                "--out", dir.appendingPathComponent("out").path, "--link-model", path, "--quiet"])
            XCTAssertNotEqual(r.status, 0)
            XCTAssertTrue(r.stderr.contains("link model \(path)"), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        }
    }

    /// The Helsinki sample's `--write-evidence` rows, and the run's output directory.
    private func helsinkiEvidence() throws -> (rows: [[String: String]], out: URL) {
        let dir = TestPaths.temporaryDirectory(self)
        let evidence = dir.appendingPathComponent("evidence.csv").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", dir.appendingPathComponent("out").path, "--write-evidence", evidence, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try OutputFiles.csv(evidence), dir.appendingPathComponent("out"))
    }

    /// `--write-evidence`: one row per candidate, the model's features by name, and the
    /// probabilities the run computed from them (the first stage's, to its nearest step of
    /// 1/65535, and the second's from those and the claims).
    func testEvidenceFileListsEveryCandidateWithItsFeatures() throws {
        let (rows, out) = try helsinkiEvidence()
        let links = try OutputFiles.csv(out.appendingPathComponent("links.csv").path)
        XCTAssertGreaterThanOrEqual(rows.count, links.count)
        XCTAssertEqual(Set(rows[0].keys), Set(["address_id", "building_id", "first_probability", "probability"] + CompetingClaims.secondStageNames))
        let model = LinkModel.standard
        for row in rows.prefix(200) {
            let x = CompetingClaims.secondStageNames.map { Double(row[$0]!)! }
            let first = model.first.probability(Array(x.prefix(CandidateFeatures.names.count)))
            XCTAssertEqual(CompetingClaims.probability(CompetingClaims.quantized(first)), Double(row["first_probability"]!)!)
            XCTAssertEqual(first, Double(row["first_probability"]!)!, accuracy: 0.5 / 65535, "the nearest step of 1/65535")
            XCTAssertEqual(model.second!.probability(x), Double(row["probability"]!)!)
        }
        // Every link names one of its address's candidates.
        var candidates: Set<String> = []
        for row in rows { candidates.insert(row["address_id"]! + " " + row["building_id"]!) }
        for l in links { XCTAssertTrue(candidates.contains(l["address_id"]! + " " + l["building_id"]!)) }
    }

    /// A one-stage model (a version-2 file, such as the neutral model a re-fit runs with) writes
    /// the evidence too: the claims from its stage, and its stage's probability as the run's.
    func testEvidenceWithAOneStageModelFile() throws {
        let dir = TestPaths.temporaryDirectory(self)
        var file = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(LinkModelFile.json.utf8)) as? [String: Any])
        file["version"] = 2
        file["second_stage"] = nil
        let model = dir.appendingPathComponent("one-stage.json")
        try JSONSerialization.data(withJSONObject: file).write(to: model)
        let evidence = dir.appendingPathComponent("evidence.csv").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", dir.appendingPathComponent("out").path, "--link-model", model.path,
                                            "--write-evidence", evidence, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rows = try OutputFiles.csv(evidence)
        XCTAssertGreaterThan(rows.count, 1000)
        for row in rows {
            let p = Double(row["probability"]!)!
            XCTAssertEqual(CompetingClaims.probability(CompetingClaims.quantized(p)), Double(row["first_probability"]!)!)
            XCTAssertEqual(LinkModel.standard.first.probability(CandidateFeatures.names.map { Double(row[$0]!)! }), p)
        }
        XCTAssertTrue(rows.contains { Double($0["strongest_other_claim"]!)! > 0.5 }, "the claims are written")
    }

    /// The first stage's probabilities are kept in steps of 1/65535, the nearest (half-way: the
    /// even one, as fit.py's np.round), and read back exactly as those steps.
    func testFirstProbabilitiesAreKeptInSteps() {
        XCTAssertEqual(CompetingClaims.quantized(0), 0)
        XCTAssertEqual(CompetingClaims.quantized(1), 65535)
        XCTAssertEqual(CompetingClaims.quantized(0.5), 32768, "32767.5: the even step")
        XCTAssertEqual(CompetingClaims.quantized(0.25), 16384)
        XCTAssertEqual(CompetingClaims.quantized(0.9973), 65358)
        XCTAssertEqual(CompetingClaims.probability(65535), 1)
        XCTAssertEqual(CompetingClaims.probability(CompetingClaims.quantized(0.9973)), 65358.0 / 65535)
        for p in stride(from: 0.0, through: 1.0, by: 0.001) {
            XCTAssertEqual(CompetingClaims.probability(CompetingClaims.quantized(p)), p, accuracy: 0.5 / 65535)
        }
    }

    /// The second stage's claims, recomputed from the evidence's own first-stage probabilities:
    /// a candidate's `strongest_other_claim` is the highest any other address gives its building,
    /// and `alternative_strongest_other_claim` that of the address's likeliest other candidate
    /// (ties: the nearer; 1 with none). On the Helsinki sample, every candidate.
    func testClaimsAreTheOtherAddressesFirstStageProbabilities() throws {
        let (rows, _) = try helsinkiEvidence()
        var claims: [String: [(address: String, p: Double)]] = [:]
        var candidates: [String: [(building: String, p: Double)]] = [:]  // nearest first, as written
        for row in rows {
            let p = Double(row["first_probability"]!)!
            claims[row["building_id"]!, default: []].append((row["address_id"]!, p))
            candidates[row["address_id"]!, default: []].append((row["building_id"]!, p))
        }
        func strongestOther(_ b: String, than a: String) -> Double { claims[b]!.filter { $0.address != a }.map(\.p).max() ?? 0 }
        var contested = 0
        for row in rows {
            let a = row["address_id"]!, b = row["building_id"]!
            XCTAssertEqual(Double(row["strongest_other_claim"]!)!, strongestOther(b, than: a), "\(a) \(b)")
            let others = candidates[a]!.filter { $0.building != b }
            let alternative = others.first { o in o.p == others.map(\.p).max() }
            XCTAssertEqual(Double(row["alternative_strongest_other_claim"]!)!, alternative.map { strongestOther($0.building, than: a) } ?? 1,
                           "\(a) \(b)")
            if strongestOther(b, than: a) > 0.5 { contested += 1 }
        }
        XCTAssertGreaterThan(contested, 100, "the sample has buildings two addresses want")
    }

    /// `unclaimed_alternative_m`: how much farther the nearest other candidate lies that no other
    /// address sees first and that is no shed. q's nearest house H1 is also p's; H2, 0.6 m farther
    /// from q, is nobody's nearest. From H2, q's other candidate H1 is p's too: none (1000).
    func testUnclaimedAlternativeIsTheNearestOtherCandidateNobodyElseSeesFirst() throws {
        var scene = TownhouseTests.Scene()
        scene.buildings.append(("H1", TownhouseTests.rect(0, 0, 10, 10)))
        scene.buildings.append(("H2", TownhouseTests.rect(0, 13, 10, 23)))
        scene.buildings.append(("shed", TownhouseTests.rect(20, 0, 23, 3)))  // 9 m², a house within 20 m: an accessory
        scene.addresses.append(("p", "1", "Mill Lane", nil, 5, -1))
        scene.addresses.append(("q", "3", "Mill Lane", nil, 5, 11.2))
        // The scene is drawn in lon/lat on a sphere and measured on the ellipsoid: metres agree to
        // about 0.5%, so the longer gaps are compared to 0.2 m.
        let value = try evidenceRows(of: scene).mapValues { Double($0["unclaimed_alternative_m"]!)! }
        XCTAssertEqual(value["q H1"]!, 0.6, accuracy: 0.01)
        XCTAssertEqual(value["q H2"], CandidateFeatures.noGap)
        XCTAssertEqual(value["p H1"]!, 13, accuracy: 0.2, "H2 is 14 m from p, H1 1 m; the shed does not count")
        XCTAssertEqual(value["p shed"]!, 14 - (15 * 15 + 1).squareRoot(), accuracy: 0.2, "H2 is nearer than the shed")
    }

    /// The centroid features: p stands 2 m off the short end of a 30 × 10 m building, 17 m from
    /// its middle; q 3 m off its long side, 8 m from the middle. By the outline p is the nearer;
    /// by the centroid, q. Beside them, a 260 m building whose middle is more than 100 m from both
    /// (measured as it is, not cut at 100), and p's second candidate, a shed no other address sees.
    func testCentroidFeaturesSayWhoStandsNearestTheBuildingsMiddle() throws {
        var scene = TownhouseTests.Scene()
        scene.buildings.append(("B", TownhouseTests.rect(0, 0, 30, 10)))
        scene.buildings.append(("S", TownhouseTests.rect(-40, 0, -32, 8)))
        scene.buildings.append(("L", TownhouseTests.rect(0, 500, 260, 510)))
        scene.addresses.append(("p", "1", "Mill Lane", nil, -2, 5))
        scene.addresses.append(("q", "3", "Mill Lane", nil, 15, -3))
        scene.addresses.append(("r", "5", "Mill Lane", nil, -2, 505))
        scene.addresses.append(("s", "7", "Mill Lane", nil, 250, 497))
        let row = try evidenceRows(of: scene)
        func value(_ key: String, _ feature: String) throws -> Double { try XCTUnwrap(Double(XCTUnwrap(row[key]?[feature]))) }
        // (Drawn in lon/lat on a sphere, measured on the ellipsoid: compared to 0.2 m, as above,
        // and to 1 m at 100 m and more.)
        XCTAssertEqual(try value("p B", "distance_m"), 2, accuracy: 0.2)
        XCTAssertEqual(try value("q B", "distance_m"), 3, accuracy: 0.2)
        XCTAssertEqual(try value("p B", "centroid_m"), 17, accuracy: 0.2)
        XCTAssertEqual(try value("q B", "centroid_m"), 8, accuracy: 0.2)
        XCTAssertEqual(try value("p B", "others_closer_to_centroid"), 1)
        XCTAssertEqual(try value("q B", "others_closer_to_centroid"), 0)
        XCTAssertEqual(try value("p B", "closer_to_centroid_than_others_m"), 9, accuracy: 0.2)
        XCTAssertEqual(try value("q B", "closer_to_centroid_than_others_m"), -9, accuracy: 0.2)
        XCTAssertEqual(try value("p B", "other_addresses_closer"), 0, "by the outline, p is the nearer")
        // p's second candidate (rank 1), a shed 30 m away, 34 m from its middle; no other address
        // sees it (q is 47 m away): 100 m stands in for the nearest other.
        XCTAssertEqual(try value("p S", "rank"), 1)
        XCTAssertEqual(try value("p S", "centroid_m"), (34.0 * 34 + 1).squareRoot(), accuracy: 0.2)
        XCTAssertEqual(try value("p S", "others_closer_to_centroid"), 0)
        XCTAssertEqual(try value("p S", "closer_to_centroid_than_others_m"), (34.0 * 34 + 1).squareRoot() - CandidateFeatures.farAway, accuracy: 0.2)
        // The long building: r 132 m from its middle, s 120.3 m; each gap as it is (12 m), not
        // against a 100 m cap (32 m and −20 m).
        XCTAssertEqual(try value("r L", "centroid_m"), 132, accuracy: 1)
        XCTAssertEqual(try value("s L", "centroid_m"), (120.0 * 120 + 64).squareRoot(), accuracy: 1)
        XCTAssertEqual(try value("r L", "closer_to_centroid_than_others_m"), 132 - (120.0 * 120 + 64).squareRoot(), accuracy: 1)
        XCTAssertEqual(try value("s L", "closer_to_centroid_than_others_m"), (120.0 * 120 + 64).squareRoot() - 132, accuracy: 1)
    }

    /// The evidence of a run over `scene`, each row by "address building".
    private func evidenceRows(of scene: TownhouseTests.Scene) throws -> [String: [String: String]] {
        let dir = TestPaths.temporaryDirectory(self)
        let (b, a) = try scene.write(to: dir)
        let evidence = dir.appendingPathComponent("evidence.csv").path
        let r = try ProcessRunner.flyrLink(["run", "--buildings", b, "--addresses", a, "--out", dir.appendingPathComponent("out").path,
                                            "--write-evidence", evidence, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        var rows: [String: [String: String]] = [:]
        for row in try OutputFiles.csv(evidence) { rows[row["address_id"]! + " " + row["building_id"]!] = row }
        return rows
    }
}
