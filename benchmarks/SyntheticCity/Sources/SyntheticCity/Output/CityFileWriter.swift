import Foundation

/// Writes a generated city to DIR: buildings.geojson, addresses.geojson, truth.csv, city.json.
public final class CityFileWriter: CitySink {
    public static let buildingsFile = "buildings.geojson"
    public static let addressesFile = "addresses.geojson"
    public static let truthFile = "truth.csv"
    public static let summaryFile = "city.json"

    private let directory: URL
    private let buildings: BuildingsWriter
    private let addresses: AddressesWriter
    private let truth: TruthWriter

    public init(directory: URL, projection: LocalProjection) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        buildings = try BuildingsWriter(path: directory.appendingPathComponent(Self.buildingsFile).path, projection: projection)
        addresses = try AddressesWriter(path: directory.appendingPathComponent(Self.addressesFile).path, projection: projection)
        truth = try TruthWriter(path: directory.appendingPathComponent(Self.truthFile).path)
    }

    public func add(building: SyntheticBuilding) throws { try buildings.write(building) }

    public func add(address: SyntheticAddress) throws {
        try addresses.write(address)
        try truth.write(address)
    }

    /// Closes the streams and writes city.json (sorted keys, so it is byte-stable too).
    public func finish(summary: CitySummary) throws {
        try buildings.close()
        try addresses.close()
        try truth.close()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(summary)
        data.append(UInt8(ascii: "\n"))
        try data.write(to: directory.appendingPathComponent(Self.summaryFile))
    }
}

/// Generates the city for `config` and writes all four files into `directory`.
@discardableResult
public func generateCity(config: CityConfig, to directory: URL) throws -> CitySummary {
    let projection = LocalProjection(originLon: config.originLon, originLat: config.originLat)
    let writer = try CityFileWriter(directory: directory, projection: projection)
    let stats = try CityGenerator(config: config).generate(into: writer)
    let summary = CitySummary(config: config, stats: stats)
    try writer.finish(summary: summary)
    return summary
}
