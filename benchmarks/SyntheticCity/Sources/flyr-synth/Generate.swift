import ArgumentParser
import Foundation
import SyntheticCity

extension CityProfile: ExpressibleByArgument {}

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write buildings.geojson, addresses.geojson, truth.csv and city.json into DIR.")

    @Option(help: "Number of buildings to generate (exact).")
    var buildings: Int

    @Option(help: "PRNG seed; same seed and count give byte-identical files.")
    var seed: UInt64

    @Option(help: "Output directory (created if missing).")
    var out: String

    @Option(help: "Longitude of the local origin.")
    var originLon: Double = 10.2

    @Option(help: "Latitude of the local origin.")
    var originLat: Double = 56.15

    @Option(help: "Parcel and placement mix: default (unchanged), hard (garage-fronted houses, duplexes, corner lots, rear units, multi-number lots, buildings across two lots, vacant lots beside unaddressed buildings) or dense (>= 1.6 addresses per building: garages at the street, townhouse rows, apartment units sharing one point, complexes of 1,000-50,000 units at one point, about 100 street names reused).")
    var profile: CityProfile = .standard

    func validate() throws {
        guard buildings >= 0 else { throw ValidationError("--buildings must be >= 0") }
        guard (-85.0...85.0).contains(originLat) else { throw ValidationError("--origin-lat must be within ±85") }
    }

    func run() throws {
        let config = CityConfig(buildings: buildings, seed: seed, originLon: originLon, originLat: originLat, profile: profile)
        let summary = try generateCity(config: config, to: URL(fileURLWithPath: out))
        print("wrote \(summary.counts.buildings) buildings, \(summary.counts.addresses) addresses to \(out)")
    }
}
