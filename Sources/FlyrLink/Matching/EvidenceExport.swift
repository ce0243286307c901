import Foundation

/// `--write-evidence FILE`: every candidate with its features, claims and probabilities as CSV, what
/// `fit.py` fits on, so fitting reads exactly the run's numbers; streamed to a sibling, then renamed.
enum EvidenceExport {
    static let headerStart = "address_id,building_id,"
    static let headerEnd = ",first_probability,probability"

    static func write(_ evidence: LinkEvidence, model: LinkModel, addressIDs: [String], buildingIDs: [String], to path: String,
                      pool: WorkerPool) throws(OutputError) {
        // Through a symbolic link, the file it names is replaced, not the link.
        let path = WritePath.realPath(path) ?? path
        let temporary = path + ".tmp-\(getpid())"
        let model = model.specialized(forRunOf: evidence)
        // Written for a one-stage model too (a second stage fitted on it reads them); freed on return
        // rather than held through the decisions, which make their own.
        let claims = CompetingClaims(evidence, model: model, pool: pool)
        let scoringClaims = model.second == nil ? nil : claims
        do {
            let csv = try CSVWriter(path: temporary, header: ["address_id", "building_id"] + CompetingClaims.secondStageNames
                                    + ["first_probability", "probability"])
            let width = CompetingClaims.secondStageNames.count
            var scratch = LinkDecision.Scratch()
            for a in 0..<evidence.candidates.addressCount {
                LinkDecision.probabilities(of: a, evidence: evidence, model: model, claims: scoringClaims, scratch: &scratch)
                // (A second stage's scoring has made the wide rows already.)
                if model.second == nil { claims.fill(&scratch.wideRows, rows: scratch.rows, address: a, evidence: evidence) }
                for (rank, c) in evidence.candidates[a].enumerated() {
                    // Numbers as the shortest text that reads back as the same double.
                    var row: [String?] = [addressIDs[a], buildingIDs[Int(c.building)]]
                    for v in scratch.wideRows[rank * width..<(rank + 1) * width] { row.append("\(v)") }
                    row.append("\(claims.firstProbability(address: a, rank: rank, evidence: evidence))")
                    row.append("\(scratch.probabilities[rank])")
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
