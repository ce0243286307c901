/// Orders the links, marks one primary per building (highest confidence, then lowest house
/// number, then address id) and indexes them by address and building.
enum LinkAssembly {
    static func assemble(_ run: inout LinkRun, links: [Link], decisions: [ProximityMatcher.Decision]) {
        let addresses = run.addresses
        var byBuilding = [[Link]](repeating: [], count: run.buildings.count)
        for l in links { byBuilding[l.buildingIndex].append(l) }
        var ordered: [Link] = []
        ordered.reserveCapacity(links.count)
        var linksOfBuilding = [[Int]](repeating: [], count: run.buildings.count)
        for b in byBuilding.indices where !byBuilding[b].isEmpty {
            var group = byBuilding[b]
            group.sort { x, y in
                if x.confidence != y.confidence { return x.confidence > y.confidence }
                let hx = addresses[x.addressIndex].houseNumber, hy = addresses[y.addressIndex].houseNumber
                if HouseNumber.less(hx, hy) { return true }
                if HouseNumber.less(hy, hx) { return false }
                return x.addressIndex < y.addressIndex  // addresses are in id order
            }
            for (k, var l) in group.enumerated() {
                l.isPrimary = k == 0
                linksOfBuilding[b].append(ordered.count)
                ordered.append(l)
            }
        }
        var linkOfAddress = [Int?](repeating: nil, count: addresses.count)
        for (i, l) in ordered.enumerated() { linkOfAddress[l.addressIndex] = i }
        run.links = ordered
        run.linkOfAddress = linkOfAddress
        run.linksOfBuilding = linksOfBuilding
        run.unlinkedReason = decisions.enumerated().map { a, d in linkOfAddress[a] == nil ? (d.unlinked?.rawValue ?? "unlinked") : nil }
    }
}
