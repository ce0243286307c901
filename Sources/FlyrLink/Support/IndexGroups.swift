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
        // Counted into each group's slot, summed into where each group ends, then filled from
        // the back, the last index first: each slot comes down to where its group starts, and
        // each group is ascending, with no second array of positions (millions of groups).
        var start = [Int32](repeating: 0, count: keyCount + 1)
        for i in 0..<count { if let g = key(i) { start[g] += 1 } }
        for g in 0..<keyCount { start[g + 1] += start[g] }
        var members = [Int32](repeating: 0, count: Int(start[keyCount]))
        for i in stride(from: count - 1, through: 0, by: -1) {
            if let g = key(i) {
                start[g] -= 1
                members[Int(start[g])] = Int32(i)
            }
        }
        self.start = start
        self.members = members
    }

    var groupCount: Int { start.count - 1 }

    subscript(group: Int) -> ArraySlice<Int32> {
        members[Int(start[group])..<Int(start[group + 1])]
    }

    /// Where group g's members lie (`member(_:)`): reading them so copies no reference.
    func range(of group: Int) -> Range<Int> { Int(start[group])..<Int(start[group + 1]) }

    func member(_ i: Int) -> Int { Int(members[i]) }

    func size(of group: Int) -> Int { Int(start[group + 1] - start[group]) }
}
