import Foundation

/// `--write-evidence FILE`: every candidate of every address with its features, the other
/// addresses' claims on it (`CompetingClaims`, from the first stage), and the model's
/// probabilities (the first stage's, in the steps of 1/65535 the claims are made from, and the
/// one the run decides by, unrounded: the second stage's when the model has one), as CSV in
/// address order: what `benchmarks/link-model/fit.py` fits a model on, so the fitting reads
/// exactly the numbers the run computes. Streamed to a temporary sibling, then renamed (at 1M
/// addresses the file is a few gigabytes).
enum EvidenceExport {
    static let headerStart = "address_id,building_id,"
    static let headerEnd = ",first_probability,probability"

    static func write(_ evidence: LinkEvidence, model: LinkModel, addressIDs: [String], buildingIDs: [String], to path: String,
                      pool: WorkerPool) throws(OutputError) {
        // Through a symbolic link, the file it names is replaced, not the link.
        let path = WritePath.realPath(path) ?? path
        let temporary = path + ".tmp-\(getpid())"
        let model = model.fixing(runOf: evidence)
        // Written for a one-stage model too (what a second stage fitted on this evidence will read);
        // only a second stage scores with them. (Freed on return: the decision makes its own, so
        // a run that writes evidence scores the first stage once more rather than hold these
        // through the decisions.)
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
