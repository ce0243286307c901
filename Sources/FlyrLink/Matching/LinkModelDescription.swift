import Foundation

extension LinkModel {
    /// The compiled-in model's file as `--version` names it: format, version, trees, what it was
    /// fitted on and the first 12 hex digits of the file's SHA-256 (benchmarks/link-model/link-model.json).
    static var compiledInDescription: String {
        struct Header: Decodable {
            let format: String
            let version: Int
            let fittedOn: [String]?
            let trees: [TreeEnsemble.Tree]
            let secondStage: SecondStage?

            enum CodingKeys: String, CodingKey { case format, version, fittedOn = "fitted_on", trees, secondStage = "second_stage" }
        }
        struct SecondStage: Decodable {
            let trees: [TreeEnsemble.Tree]
        }
        let bytes = Array(LinkModelFile.json.utf8)
        guard let h = try? JSONDecoder().decode(Header.self, from: Data(bytes)) else { return "unreadable" }
        // Each set by its short name: "… (la_dev)" → "la_dev".
        let names = (h.fittedOn ?? []).map { text -> String in
            guard let open = text.lastIndex(of: "("), text.hasSuffix(")") else { return text }
            return String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        return "\(h.format) version \(h.version), \(h.trees.count) trees\(h.secondStage.map { " + \($0.trees.count) in a second stage" } ?? ""), fitted on \(names.joined(separator: ", ")); sha256 \(SHA256.hash(bytes).prefix(12))"
    }
}
