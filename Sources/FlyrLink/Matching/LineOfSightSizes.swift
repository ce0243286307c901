import Foundation

/// Per candidate, the log area ratio of the largest candidate straight behind it and of the smallest straight in
/// front: a garage at the street has its house behind it, and the house has the garage in front.
struct LineOfSightSizes {
    private(set) var largerBehind = InlineArray<6, Double>(repeating: 0)
    private(set) var smallerInFront = InlineArray<6, Double>(repeating: 0)

    /// `own`: the address's candidates, nearest first (at most `CandidateTable.limit`, the arrays' 6).
    init(own: Range<Int>, candidates: borrowing CandidateTable) {
        let n = own.count
        // Widened once per candidate, not once per pair.
        var dx = InlineArray<6, Float>(repeating: 0), dy = InlineArray<6, Float>(repeating: 0)
        var length2 = InlineArray<6, Float>(repeating: 0), area = InlineArray<6, Float>(repeating: 1)
        for k in 0..<n {
            let c = candidates.entry(own.lowerBound + k)
            dx[k] = c.dx
            dy[k] = c.dy
            length2[k] = c.dx * c.dx + c.dy * c.dy
            area[k] = max(candidates.area(c), 1)
        }
        for i in 0..<n {
            for j in (i + 1)..<n where area[j] > area[i] {
                // Nearest points within 30° of one direction (cos² 30° = 0.75); never for a candidate the address is in or on.
                let dot = dx[i] * dx[j] + dy[i] * dy[j], lengths = length2[i] * length2[j]
                guard lengths > 0.0001, dot > 0, dot * dot >= 0.75 * lengths else { continue }
                let ratio = log(Double(area[j]) / Double(area[i]))
                largerBehind[i] = max(largerBehind[i], ratio)
                smallerInFront[j] = max(smallerInFront[j], ratio)
            }
        }
    }
}
