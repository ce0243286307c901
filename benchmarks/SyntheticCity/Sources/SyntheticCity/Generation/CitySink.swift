/// Receives a city as it is generated, in record order, so nothing has to be held
/// in memory: the file writer streams it to disk, tests can collect it.
public protocol CitySink: AnyObject {
    func add(building: SyntheticBuilding) throws
    func add(address: SyntheticAddress) throws
}

/// Keeps everything in memory; meant for tests and small cities.
public final class CollectingSink: CitySink {
    public private(set) var buildings: [SyntheticBuilding] = []
    public private(set) var addresses: [SyntheticAddress] = []

    public init() {}

    public func add(building: SyntheticBuilding) { buildings.append(building) }
    public func add(address: SyntheticAddress) { addresses.append(address) }
}
