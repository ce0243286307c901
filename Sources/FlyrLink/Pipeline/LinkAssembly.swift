/// The links in order, one primary per building (highest confidence, then lowest house number,
/// then address id), indexed by address and building.
struct LinkAssembly {
    var links: [Link]
    var buildingLinkStart: [Int]
    var linkOfAddress: LinkOfAddress
    var unlinkedReason: UnlinkedReasons

    /// `unlinked`: each unlinked address's reason. `links` is freed once grouped (a run's second
    /// largest array); reads the addresses, not the buildings (decompressed after this).
    init(grouping links: consuming [Link], unlinked: [UnlinkedReason?], addresses: [AddressPoint], buildingCount: Int,
         pool: WorkerPool = WorkerPool(threads: 1)) {
        // Group by building with a counting sort (links arrive in address order) into a copy: swapping
        // in place would wait on a cache miss per link.
        let all = consume links
        var start = [Int](repeating: 0, count: buildingCount + 1)
        for l in all { start[l.buildingIndex + 1] += 1 }
        for b in 0..<buildingCount { start[b + 1] += start[b] }
        var fill = start
        var ordered = ResultSlots<Link>.collect(all.count) { slots in
            for l in all { slots.set(fill[l.buildingIndex], l); fill[l.buildingIndex] += 1 }
        }
        _ = consume all
        fill = []
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
        // Each address's link, and the reason of those without: made on the workers (large fresh arrays).
        var linkOfAddress = pool.map(addresses.count, chunkSize: 65_536) { _, _ in Int32(-1) }
        linkOfAddress.withUnsafeMutableBufferPointer { buffer in
            let shared = UncheckedBox(buffer)
            pool.forEachRange(ordered.count, chunkSize: 65_536) { stretch in
                for i in stretch { shared.value[ordered[i].addressIndex] = Int32(i) }
            }
        }
        self.links = ordered
        buildingLinkStart = start
        unlinkedReason = UnlinkedReasons(pool.map(addresses.count, chunkSize: 65_536) { [linkOfAddress] _, a in
            linkOfAddress[a] < 0 ? UnlinkedReasons.code(unlinked[a]) : UnlinkedReasons.linked
        })
        self.linkOfAddress = LinkOfAddress(linkOfAddress)
    }
}
