import Foundation
import XCTest
@testable import SyntheticCity

/// Checks the four output files agree with each other and with city.json.
final class GeneratedFilesTests: XCTestCase {
    private static let buildingCount = 1200
    private var directory: URL!
    private var summary: CitySummary!

    override func setUpWithError() throws {
        directory = try TestSupport.temporaryDirectory("files")
        summary = try generateCity(config: CityConfig(buildings: Self.buildingCount, seed: 7), to: directory)
    }

    func testCountsMatchCityJSON() throws {
        let buildings = try TestSupport.features(directory.appendingPathComponent("buildings.geojson"))
        let addresses = try TestSupport.features(directory.appendingPathComponent("addresses.geojson"))
        let truth = try loadTruth(from: directory.appendingPathComponent("truth.csv"))
        let city = try TestSupport.jsonObject(directory.appendingPathComponent("city.json"))
        let counts = try XCTUnwrap(city["counts"] as? [String: Any])

        XCTAssertEqual(buildings.count, Self.buildingCount)
        XCTAssertEqual(counts["buildings"] as? Int, buildings.count)
        XCTAssertEqual(counts["addresses"] as? Int, addresses.count)
        XCTAssertEqual(truth.count, addresses.count)
        XCTAssertEqual(city["seed"] as? Int, 7)

        var kinds: [String: Int] = [:]
        for f in buildings { kinds[(f["properties"] as! [String: Any])["kind"] as! String, default: 0] += 1 }
        let byKind = try XCTUnwrap(counts["buildingsByKind"] as? [String: Int])
        XCTAssertEqual(byKind.filter { $0.value > 0 }, kinds)

        var placements: [String: Int] = [:]
        var truthKinds: [String: Int] = [:]
        for record in truth.values {
            placements[record.placement, default: 0] += 1
            truthKinds[record.kind, default: 0] += 1
        }
        XCTAssertEqual((counts["addressesByPlacement"] as? [String: Int])?.filter { $0.value > 0 }, placements)
        XCTAssertEqual((counts["addressesByKind"] as? [String: Int])?.filter { $0.value > 0 }, truthKinds)
        // A city of this size has every kind and every placement.
        XCTAssertEqual(Set(kinds.keys), Set(BuildingKind.defaultProfileCases.map(\.rawValue)))
        XCTAssertEqual(Set(placements.keys), Set(Placement.defaultProfileCases.map(\.rawValue)))
        // The default profile's city.json lists its own kinds only (unchanged since before profiles).
        XCTAssertEqual(Set(byKind.keys), Set(BuildingKind.defaultProfileCases.map(\.rawValue)))
        XCTAssertNil(city["profile"])
    }

    func testEveryTruthRowPointsAtRealFeatures() throws {
        let buildings = try TestSupport.features(directory.appendingPathComponent("buildings.geojson"))
        let addresses = try TestSupport.features(directory.appendingPathComponent("addresses.geojson"))
        let truth = try loadTruth(from: directory.appendingPathComponent("truth.csv"))
        var buildingKinds: [String: String] = [:]
        for f in buildings {
            let p = f["properties"] as! [String: Any]
            buildingKinds[p["id"] as! String] = p["kind"] as? String
            XCTAssertNotNil(p["height"] as? Double)
            XCTAssertNotNil(p["levels"] as? Int)
        }
        let addressIds = Set(addresses.map { ($0["properties"] as! [String: Any])["id"] as! String })
        XCTAssertEqual(addressIds.count, addresses.count, "address ids are unique")
        XCTAssertEqual(Set(truth.keys), addressIds)

        for record in truth.values {
            XCTAssertTrue(addressIds.contains(record.addressId))
            if record.kind == "vacant_lot" {
                XCTAssertNil(record.buildingId)
                XCTAssertEqual(record.placement, "lot")
            } else {
                let building = try XCTUnwrap(record.buildingId, record.addressId)
                // Truth kind is the kind of the building it names; garages etc. never carry addresses.
                XCTAssertEqual(buildingKinds[building], record.kind, record.addressId)
            }
        }
        for f in addresses {
            let p = f["properties"] as! [String: Any]
            for key in ["id", "house_number", "street_name", "unit", "postal_code", "locality"] {
                XCTAssertNotNil(p[key] as? String, "address property \(key)")
            }
        }
    }

    func testGeoJSONShapes() throws {
        let collection = try TestSupport.jsonObject(directory.appendingPathComponent("buildings.geojson"))
        XCTAssertEqual(collection["type"] as? String, "FeatureCollection")
        XCTAssertNil(collection["crs"])
        let first = try XCTUnwrap((collection["features"] as? [[String: Any]])?.first)
        let geometry = try XCTUnwrap(first["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["type"] as? String, "Polygon")
        let ring = try XCTUnwrap((geometry["coordinates"] as? [[[Double]]])?.first)
        XCTAssertEqual(ring.first, ring.last, "rings are closed")
        XCTAssertGreaterThanOrEqual(ring.count, 5)
        // Longitude first, near the default origin.
        XCTAssertEqual(ring[0][0], 10.2, accuracy: 0.5)
        XCTAssertEqual(ring[0][1], 56.15, accuracy: 0.5)
    }

    func testOutlinePointsStayOnWallsAfterPrinting() throws {
        // The affine mapping plus 8-decimal printing keeps outline points within ~1 mm.
        let projection = LocalProjection(originLon: 10.2, originLat: 56.15)
        let buildings = try TestSupport.features(directory.appendingPathComponent("buildings.geojson"))
        let addresses = try TestSupport.features(directory.appendingPathComponent("addresses.geojson"))
        let truth = try loadTruth(from: directory.appendingPathComponent("truth.csv"))
        var rings: [String: [Point]] = [:]
        for f in buildings {
            let id = (f["properties"] as! [String: Any])["id"] as! String
            let coords = ((f["geometry"] as! [String: Any])["coordinates"] as! [[[Double]]])[0]
            rings[id] = coords.dropLast().map { projection.metres(lon: $0[0], lat: $0[1]) }
        }
        var checked = 0
        for f in addresses {
            let id = (f["properties"] as! [String: Any])["id"] as! String
            guard let record = truth[id], record.placement == "outline", let b = record.buildingId else { continue }
            let c = (f["geometry"] as! [String: Any])["coordinates"] as! [Double]
            let p = projection.metres(lon: c[0], lat: c[1])
            XCTAssertLessThan(TestSupport.distanceToOutline(p, rings[b]!), 0.002, id)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 50)
    }
}
