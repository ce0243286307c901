import Foundation

/// `--write-evidence FILE`: every candidate of every address with its features and the model's
/// probability, as CSV in address order: what `benchmarks/link-model/fit.py` fits a model on, so
/// the fitting reads exactly the numbers the run computes. Streamed to a temporary sibling, then
/// renamed (at 1M addresses the file is a few gigabytes).
enum EvidenceExport {
    static func write(_ evidence: LinkEvidence, model: LinkModel, addressIDs: [String], buildingIDs: [String], to path: String) throws(OutputError) {
        let temporary = path + ".tmp-\(getpid())"
        do {
            let csv = try CSVWriter(path: temporary, header: ["address_id", "building_id"] + CandidateFeatures.names + ["probability"])
            let width = CandidateFeatures.names.count
            var rows = [Double](repeating: 0, count: width * CandidateTable.limit)
            for a in 0..<evidence.candidates.addressCount {
                CandidateFeatures.fill(&rows, address: a, evidence: evidence)
                for (rank, c) in evidence.candidates[a].enumerated() {
                    let x = Array(rows[rank * width..<(rank + 1) * width])
                    // Numbers as the shortest text that reads back as the same double.
                    var row: [String?] = [addressIDs[a], buildingIDs[Int(c.building)]]
                    for v in x { row.append("\(v)") }
                    row.append("\(model.probability(x))")
                    csv.row(row)
                }
            }
            try csv.close()
        } catch {
            unlink(temporary)
            throw OutputError("cannot write evidence to \(path): \(error)")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw OutputError("cannot write evidence to \(path): \(String(cString: strerror(errno)))")
        }
    }
}
