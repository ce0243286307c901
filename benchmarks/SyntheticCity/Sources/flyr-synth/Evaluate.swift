import ArgumentParser
import Foundation
import SyntheticCity

struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Score a links table (address_id, building_id, confidence[, unit_id]) against truth.csv.")

    @Option(help: "Links CSV with a header row.")
    var links: String

    @Option(help: "truth.csv written by generate.")
    var truth: String

    @Option(help: "addresses.geojson, to cross-check address ids.")
    var addresses: String?

    @Option(help: "units.geojson of the same run, to score townhouse splits.")
    var units: String?

    @Flag(help: "Print the result as a JSON object instead of text.")
    var json = false

    func run() throws {
        let truthTable = try loadTruth(from: URL(fileURLWithPath: truth))
        let linkRows = try loadLinks(from: URL(fileURLWithPath: links))
        let ids = try addresses.map { try loadAddressIds(from: URL(fileURLWithPath: $0)) }
        let result = evaluate(links: linkRows, truth: truthTable, addressIds: ids)
        let unitScore = try units.map { evaluateUnits(units: try loadUnits(from: URL(fileURLWithPath: $0)), links: linkRows, truth: truthTable) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
            if let unitScore { print(String(decoding: try encoder.encode(unitScore), as: UTF8.self)) }
        } else {
            print(EvaluationReport.text(result), terminator: "")
            if let unitScore { print("\n" + unitScore.text, terminator: "") }
        }
    }
}
