/// Orders the links, marks one primary per building (highest confidence, then lowest house
/// number, then address id) and indexes them by address and building.
enum LinkAssembly {
    /// `unlinked`: each address's reason when it has no link (as ProximityMatcher.decide gives them).
    /// `links` is taken (emptied) and grouped in place.
    static func assemble(_ run: inout LinkRun, links: inout [Link], unlinked: [ProximityMatcher.UnlinkedReason?],
                         pool: WorkerPool = WorkerPool(threads: 1)) {
        let addresses = run.addresses
        // Grouped by building in place (links arrive in address order): each link is swapped into
        // the next free slot of its building's range until every range holds its own (a copy
        // grouped beside them was 34 MB more at 1M addresses, at the assembly's peak). Then each
        // group is put in order.
        let buildingCount = run.buildings.count
        var start = [Int](repeating: 0, count: buildingCount + 1)
        for l in links { start[l.buildingIndex + 1] += 1 }
        for b in 0..<buildingCount { start[b + 1] += start[b] }
        var ordered: [Link] = []
        swap(&ordered, &links)
        var next = start
        ordered.withUnsafeMutableBufferPointer { links in
            for b in 0..<buildingCount {
                while next[b] < start[b + 1] {
                    let target = links[next[b]].buildingIndex
                    if target == b {
                        next[b] += 1
                    } else {
                        links.swapAt(next[b], next[target])
                        next[target] += 1
                    }
                }
            }
        }
        next = []
        // The groups are disjoint ranges of `ordered`: each is put in order on the workers.
        let groupStart = start
        ordered.withUnsafeMutableBufferPointer { buffer in
            let shared = UncheckedBox(buffer)
            pool.forEachRange(buildingCount, chunkSize: 16_384) { stretch in
                for b in stretch where groupStart[b] < groupStart[b + 1] {
                    var group = UnsafeMutableBufferPointer(rebasing: shared.value[groupStart[b]..<groupStart[b + 1]])
                    if group.count > 1 {
                        group.sort { x, y in
                            if x.confidence != y.confidence { return x.confidence > y.confidence }
                            let hx = addresses[x.addressIndex].houseNumber, hy = addresses[y.addressIndex].houseNumber
                            if HouseNumber.less(hx, hy) { return true }
                            if HouseNumber.less(hy, hx) { return false }
                            return x.addressIndex < y.addressIndex  // addresses are in id order
                        }
                    }
                    for k in group.indices { group[k].isPrimary = k == 0 }
                }
            }
        }
        // Each address's link, and the reason of those without: made on the workers (at 10M
        // addresses, hundreds of megabytes of fresh pages each).
        var linkOfAddress = pool.map(addresses.count, chunkSize: 65_536) { _, _ in Int32(-1) }
        linkOfAddress.withUnsafeMutableBufferPointer { buffer in
            let shared = UncheckedBox(buffer)
            pool.forEachRange(ordered.count, chunkSize: 65_536) { stretch in
                for i in stretch { shared.value[ordered[i].addressIndex] = Int32(i) }
            }
        }
        run.links = ordered
        run.buildingLinkStart = start
        run.unlinkedReason = UnlinkedReasons(pool.map(addresses.count, chunkSize: 65_536) { [linkOfAddress] _, a in
            linkOfAddress[a] < 0 ? UnlinkedReasons.code(unlinked[a]) : UnlinkedReasons.linked
        })
        run.linkOfAddress = LinkOfAddress(linkOfAddress)
    }
}
