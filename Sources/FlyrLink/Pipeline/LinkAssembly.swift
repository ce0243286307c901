/// Orders the links, marks one primary per building (highest confidence, then lowest house
/// number, then address id) and indexes them by address and building.
enum LinkAssembly {
    /// `unlinked`: each address's reason when it has no link (ProximityMatcher.Decision.unlinked).
    static func assemble(_ run: inout LinkRun, links: [Link], unlinked: [ProximityMatcher.UnlinkedReason?]) {
        let addresses = run.addresses
        // Group by building with a counting sort (links arrive in address order), then order each group.
        let buildingCount = run.buildings.count
        var start = [Int](repeating: 0, count: buildingCount + 1)
        for l in links { start[l.buildingIndex + 1] += 1 }
        for b in 0..<buildingCount { start[b + 1] += start[b] }
        var fill = start
        var ordered = links
        for l in links { ordered[fill[l.buildingIndex]] = l; fill[l.buildingIndex] += 1 }
        for b in 0..<buildingCount where start[b] < start[b + 1] {
            let group = start[b]..<start[b + 1]
            if group.count > 1 {
                ordered[group].sort { x, y in
                    if x.confidence != y.confidence { return x.confidence > y.confidence }
                    let hx = addresses[x.addressIndex].houseNumber, hy = addresses[y.addressIndex].houseNumber
                    if HouseNumber.less(hx, hy) { return true }
                    if HouseNumber.less(hy, hx) { return false }
                    return x.addressIndex < y.addressIndex  // addresses are in id order
                }
            }
            for k in group { ordered[k].isPrimary = k == group.lowerBound }
        }
        var linkOfAddress = [Int?](repeating: nil, count: addresses.count)
        for (i, l) in ordered.enumerated() { linkOfAddress[l.addressIndex] = i }
        run.links = ordered
        run.linkOfAddress = linkOfAddress
        run.buildingLinkStart = start
        run.unlinkedReason = unlinked.enumerated().map { a, reason in linkOfAddress[a] == nil ? (reason?.rawValue ?? "unlinked") : nil }
    }
}
