/// The result of a run: every accepted address and building, the links, the unit slices, the
/// rejects and the report. Writers turn it into files; tests read it directly.
public struct LinkRun: Sendable {
    public var options: RunOptions
    public var campaignID: String
    public var frame: LocalMetricFrame
    public var addresses: [AddressPoint]
    public var buildings: [Building]
    /// Sorted by building (input order), then primary first, then house number.
    public var links: [Link]
    /// Index into `links` for each address, nil when unlinked.
    public var linkOfAddress: LinkOfAddress
    /// For each unlinked address, why.
    public var unlinkedReason: UnlinkedReasons
    /// Where each building's links start in `links` (they are contiguous, primary first); one
    /// more entry than buildings. See `linksOfBuilding(_:)`.
    public var buildingLinkStart: [Int]
    public var units: [UnitSlice]
    public var rejects: [Reject]
    public var report: RunReport

    /// Link indices of building `b`, primary first.
    public func linksOfBuilding(_ b: Int) -> Range<Int> {
        buildingLinkStart[b]..<buildingLinkStart[b + 1]
    }

    /// The link table id: stable for the same campaign, building and address.
    public func linkID(_ link: Link) -> String {
        UUIDv5.make(parts: ["link", campaignID, buildings[link.buildingIndex].id, addresses[link.addressIndex].id])
    }

    /// `linkID` of each link appended as text by `body`'s function, made in place (the parts the
    /// links share prepared once).
    func withLinkIDs<R>(_ body: (_ appendLinkID: (Link, inout [UInt8]) -> Void) -> R) -> R {
        UUIDv5.withPrefix(["link", campaignID]) { prefix in
            body { link, out in UUIDv5.append(prefix, buildings[link.buildingIndex].id, addresses[link.addressIndex].id, to: &out) }
        }
    }
}

/// One townhouse unit: a slice of its building for one address.
public struct UnitSlice: Sendable, Hashable {
    public var id: String
    public var buildingIndex: Int
    public var addressIndex: Int
    public var unitIndex: Int
    /// In EPSG:4326.
    public var footprint: Footprint

    public init(id: String, buildingIndex: Int, addressIndex: Int, unitIndex: Int, footprint: Footprint) {
        self.id = id
        self.buildingIndex = buildingIndex
        self.addressIndex = addressIndex
        self.unitIndex = unitIndex
        self.footprint = footprint
    }
}
