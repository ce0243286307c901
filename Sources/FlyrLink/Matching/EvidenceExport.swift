import Foundation

/// `--write-evidence FILE`: every candidate of every address with its features and the model's
/// probability, as CSV in address order: what `benchmarks/link-model/fit.py` fits a model on, so
/// the fitting reads exactly the numbers the run computes. Written to a temporary sibling, then
/// renamed.
enum EvidenceExport {
    static func write(_ evidence: LinkEvidence, model: LinkModel, addressIDs: [String], buildingIDs: [String], to path: String) throws(OutputError) {
        var bytes: [UInt8] = []
        CSVWriter.appendRow(["address_id", "building_id"] + CandidateFeatures.names + ["probability"], to: &bytes)
        var x = [Double](repeating: 0, count: CandidateFeatures.names.count)
        for a in 0..<evidence.candidates.addressCount {
            let list = evidence.candidates[a]
            for (rank, c) in list.enumerated() {
                CandidateFeatures.fill(&x, address: a, rank: rank, evidence: evidence)
                // Numbers as the shortest text that reads back as the same double.
                var row: [String?] = [addressIDs[a], buildingIDs[Int(c.building)]]
                for v in x { row.append("\(v)") }
                row.append("\(model.probability(x))")
                CSVWriter.appendRow(row, to: &bytes)
            }
        }
        let temporary = path + ".tmp-\(getpid())"
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw OutputError("cannot write evidence to \(path): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw OutputError("cannot write evidence to \(path): \(String(cString: strerror(errno)))")
        }
    }
}
