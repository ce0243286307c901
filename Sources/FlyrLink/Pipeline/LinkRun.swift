/// The result of a run: every accepted address and building, the links, the unit slices, the
/// rejects and the report. Writers turn it into files; tests read it directly.
public struct LinkRun: Sendable {
    public var options: RunOptions
    public var campaignID: String
    public var frame: LocalMetricFrame
    public var addresses: [AddressPoint]
    /// The addresses' points in EPSG:4326, in address order; none in a run that writes no
    /// geometry (links only). See `location(ofAddress:)`.
    var addressLocations: [Point2]
    public var buildings: [Building]
    /// The buildings' footprints in EPSG:4326, in building order; none in a run that writes no
    /// geometry (links only).
    var buildingFootprints: FootprintStore
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
    /// The rows the writers write: all (nil), or those of these addresses and buildings (a tile
    /// of a distributed run writes its own; `TileParts`).
    package var writtenRows: (addresses: [Bool], buildings: [Bool])? = nil

    /// Whether the writers write address `a`'s rows (addresses.geojson, its unlinked point).
    func writes(address a: Int) -> Bool { writtenRows?.addresses[a] ?? true }

    /// Whether the writers write building `b`'s rows (its links, its features and units).
    func writes(building b: Int) -> Bool { writtenRows?.buildings[b] ?? true }

    /// Address `a`'s point in EPSG:4326 (nil in a run that writes no geometry).
    public func location(ofAddress a: Int) -> Point2? {
        a < addressLocations.count ? addressLocations[a] : nil
    }

    /// Building `b`'s footprint in EPSG:4326 (empty in a run that writes no geometry).
    public func footprint(ofBuilding b: Int) -> Footprint {
        b < buildingFootprints.count ? buildingFootprints.footprint(b) : .empty
    }

    /// Link indices of building `b`, primary first.
    public func linksOfBuilding(_ b: Int) -> Range<Int> {
        buildingLinkStart[b]..<buildingLinkStart[b + 1]
    }

    /// The link table id: stable for the same campaign, building and address.
    public func linkID(_ link: Link) -> String {
        UUIDv5.make(parts: ["link", campaignID, buildings[link.buildingIndex].id, addresses[link.addressIndex].id])
    }

    /// `linkID` appended as text by `body`'s function, from the link's building and address ids as
    /// UTF-8, made in place (the parts the links share prepared once).
    func withLinkIDs<R>(_ body: (_ appendLinkID: (_ buildingID: UnsafeBufferPointer<UInt8>, _ addressID: UnsafeBufferPointer<UInt8>,
                                                  inout [UInt8]) -> Void) -> R) -> R {
        UUIDv5.withPrefix(["link", campaignID]) { prefix in
            body { b, a, out in UUIDv5.append(prefix, utf8: b, a, to: &out) }
        }
    }
}

/// One townhouse unit: a slice of its building for one address.
public struct UnitSlice: Sendable, Hashable {
    /// The id as 16 bytes (text made when written), indices as 32 bits: one slice per townhouse unit,
    /// with no heap allocation each.
    private var uuid: UUIDBytes
    @Int32Backed public var buildingIndex: Int
    @Int32Backed public var addressIndex: Int
    @Int32Backed public var unitIndex: Int
    /// In EPSG:4326.
    public var footprint: Footprint

    /// `id`: a UUID (unit ids are UUIDv5s of the building and the address).
    public init(id: String, buildingIndex: Int, addressIndex: Int, unitIndex: Int, footprint: Footprint) {
        guard let uuid = UUIDBytes(text: id) else { preconditionFailure("a unit id is a UUID, not \(id)") }
        self.init(uuid: uuid, buildingIndex: buildingIndex, addressIndex: addressIndex, unitIndex: unitIndex, footprint: footprint)
    }

    init(uuid: UUIDBytes, buildingIndex: Int, addressIndex: Int, unitIndex: Int, footprint: Footprint) {
        self.uuid = uuid
        self.buildingIndex = buildingIndex
        self.addressIndex = addressIndex
        self.unitIndex = unitIndex
        self.footprint = footprint
    }

    /// The unit's id, as text.
    public var id: String { uuid.text }

    /// `id` appended to `out` as text, with no string made (links.csv writes one per unit).
    func appendID(to out: inout [UInt8]) { uuid.appendText(to: &out) }
}
