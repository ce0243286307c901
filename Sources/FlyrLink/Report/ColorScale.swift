/// The report's colours, as fixed hex strings (the same value gives the same bytes on every run).
enum ColorScale {
    /// A share in 0...1 (of doubtful addresses in an overview cell) on a sequential ramp, pale
    /// green (none doubtful) through yellow and orange to dark red (all doubtful). Seven steps,
    /// not a continuous blend: a reader compares cells by eye, and a legend of seven is readable.
    static let shareSteps = ["#d9f0d3", "#fee08b", "#fdae61", "#f46d43", "#d73027", "#a50026", "#67001f"]

    /// The upper bounds of `shareSteps` (the last is 1, inclusive).
    static let shareBounds: [Double] = [0, 0.05, 0.1, 0.2, 0.35, 0.6, 1]

    static func share(_ s: Double) -> String {
        guard s.isFinite else { return shareSteps[0] }
        for (k, bound) in shareBounds.enumerated() where s <= bound { return shareSteps[k] }
        return shareSteps[shareSteps.count - 1]
    }

    /// Cells with buildings but no address.
    static let buildingsOnly = "#e4e4e4"

    /// A link's confidence (0.5...1) on a diverging ramp: red (0.5, a coin toss) to green (1).
    static let confidenceSteps: [(below: Double, color: String)] = [
        (0.6, "#d7301f"), (0.7, "#f46d43"), (0.8, "#fdae61"), (0.9, "#a6d96a"), (0.95, "#66bd63"), (2, "#1a9850"),
    ]

    static func confidence(_ c: Double) -> String {
        for step in confidenceSteps where c < step.below { return step.color }
        return confidenceSteps[confidenceSteps.count - 1].color
    }

    /// An unlinked address's marker.
    static let unlinked = "#000000"
    static let footprintFill = "#cfd8e3"
    static let footprintStroke = "#5b6b7f"
    static let unitStroke = "#7b3294"
}
