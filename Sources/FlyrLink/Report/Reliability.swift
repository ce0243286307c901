import Foundation

/// The reliability curve of a run against ground truth: per confidence band, the share of links
/// whose building is the true one. Only with `flyr-link report OUT_DIR --truth FILE` (a run has no
/// truth; the evaluation, benchmarks/evaluate.sh, scores calibration on every truth set).
struct Reliability: Equatable {
    struct Band: Equatable {
        var label: String
        /// Links in the band whose address has a truth row.
        var links = 0
        var correct = 0
        /// Sum of their confidences (for the band's mean confidence).
        var confidenceSum = 0.0

        var meanConfidence: Double { links == 0 ? 0 : confidenceSum / Double(links) }
        var accuracy: Double { links == 0 ? 0 : Double(correct) / Double(links) }
    }

    var bands: [Band]
    /// Linked addresses with no truth row (not scored).
    var withoutTruth = 0
    var truthFile: String

    /// A CSV of true links: an address id column (`address_id`, else `id`) and `building_id`
    /// (flyr-synth's truth.csv, the Danish road points' address_truth.csv).
    static func readTruth(_ path: String) throws -> [String: String] {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("cannot read truth file \(path)") }
        let rows = CSVRows.parse(String(decoding: data, as: UTF8.self))
        guard let header = rows.first, let a = header.firstIndex(of: "address_id") ?? header.firstIndex(of: "id"),
              let b = header.firstIndex(of: "building_id") else {
            throw InputError("\(path): a truth file needs an address_id (or id) column and a building_id column")
        }
        var truth: [String: String] = [:]
        for row in rows.dropFirst() where row.count > max(a, b) { truth[row[a]] = row[b] }
        return truth
    }

    /// Scored in address order, in report.json's bands.
    init<S: ReportSource>(_ source: S, truth: [String: String], truthFile: String) throws {
        var bands = RunSummary.bands.map { Band(label: $0.0) }
        var withoutTruth = 0
        try source.forEachAddress { a in
            guard let building = a.outcome.building else { return }
            guard let expected = truth[a.id] else { withoutTruth += 1; return }
            let k = RunSummary.bandIndex(of: a.outcome.confidence)
            bands[k].links += 1
            bands[k].confidenceSum += a.outcome.confidence
            if building == expected { bands[k].correct += 1 }
        }
        (self.bands, self.withoutTruth, self.truthFile) = (bands, withoutTruth, truthFile)
    }
}

/// The curve: each band's share correct against its mean confidence, beside the diagonal a
/// calibrated model would follow.
enum ReliabilityChart {
    static func draw(_ r: Reliability) -> String {
        let size = 300.0, pad = 40.0
        let n = SVGMap.n
        func x(_ c: Double) -> Double { pad + (c - 0.5) / 0.5 * (size - 2 * pad) }
        func y(_ a: Double) -> Double { size - pad - a * (size - 2 * pad) }
        var body = "<rect x=\"\(n(pad))\" y=\"\(n(pad))\" width=\"\(n(size - 2 * pad))\" height=\"\(n(size - 2 * pad))\" fill=\"none\" stroke=\"#999\"/>\n"
        body += "<line x1=\"\(n(x(0.5)))\" y1=\"\(n(y(0.5)))\" x2=\"\(n(x(1)))\" y2=\"\(n(y(1)))\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n"
        for t in [0.5, 0.75, 1.0] {
            body += "<text x=\"\(n(x(t)))\" y=\"\(n(size - pad + 14))\" font-size=\"10\" text-anchor=\"middle\">\(OutputNumber.fixed(t, 2))</text>\n"
        }
        for t in [0.0, 0.5, 1.0] {
            body += "<text x=\"\(n(pad - 4))\" y=\"\(n(y(t) + 3))\" font-size=\"10\" text-anchor=\"end\">\(OutputNumber.fixed(t, 1))</text>\n"
        }
        body += "<text x=\"\(n(size / 2))\" y=\"\(n(size - 6))\" font-size=\"11\" text-anchor=\"middle\">confidence</text>\n"
        body += "<text x=\"12\" y=\"\(n(pad - 10))\" font-size=\"11\">share correct</text>\n"
        let scored = r.bands.filter { $0.links > 0 }
        let points = scored.map { "\(n(x($0.meanConfidence))),\(n(y($0.accuracy)))" }
        if points.count > 1 { body += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"#2c7fb8\" stroke-width=\"2\"/>\n" }
        for b in scored {
            body += "<circle cx=\"\(n(x(b.meanConfidence)))\" cy=\"\(n(y(b.accuracy)))\" r=\"4\" fill=\"#2c7fb8\"><title>\(HTMLText.escape(b.label)): \(b.correct) of \(b.links) correct</title></circle>\n"
        }
        return "<svg class=\"chart\" width=\"\(n(size))\" height=\"\(n(size))\" viewBox=\"0 0 \(n(size)) \(n(size))\" role=\"img\" aria-label=\"reliability curve\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"#fbfbf8\"/>\n" + body + "</svg>\n"
    }
}
