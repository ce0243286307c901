/// The indices 0..<count grouped by a key in 0..<keyCount, with a counting sort: group g holds
/// its members in ascending order. Two passes over the keys and two 32-bit arrays (a run makes
/// these for millions of addresses and links; a comparison sort of the indices read the keys
/// at random n log n times).
struct IndexGroups {
    /// Group g is members[start[g]..<start[g + 1]].
    private let start: [Int32]
    private let members: [Int32]

    /// `key(i)`: the group of index i, or nil when it belongs to none.
    init(count: Int, keyCount: Int, key: (Int) -> Int?) {
        var start = [Int32](repeating: 0, count: keyCount + 1)
        for i in 0..<count { if let g = key(i) { start[g + 1] += 1 } }
        for g in 0..<keyCount { start[g + 1] += start[g] }
        var fill = start
        var members = [Int32](repeating: 0, count: Int(start[keyCount]))
        for i in 0..<count {
            if let g = key(i) {
                members[Int(fill[g])] = Int32(i)
                fill[g] += 1
            }
        }
        self.start = start
        self.members = members
    }

    var groupCount: Int { start.count - 1 }

    subscript(group: Int) -> ArraySlice<Int32> {
        members[Int(start[group])..<Int(start[group + 1])]
    }

    func size(of group: Int) -> Int { Int(start[group + 1] - start[group]) }
}
