/// Where each of `wanted` (ascending) sits in `sorted` (ascending, and holding every one of them):
/// one merge walk, no search. `holder` names what `sorted` is in the failure (a defect, not input).
func positions(of wanted: [Int32], in sorted: [Int32], holder: String) -> [Int] {
    var positions: [Int] = []
    positions.reserveCapacity(wanted.count)
    var k = 0
    for b in wanted {
        while sorted[k] < b { k += 1 }
        precondition(sorted[k] == b, "building \(b) is not in \(holder)")
        positions.append(k)
    }
    return positions
}
