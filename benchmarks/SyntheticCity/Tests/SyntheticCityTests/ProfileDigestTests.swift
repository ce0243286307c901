import Foundation
import XCTest
@testable import SyntheticCity

/// The default and hard profiles must not move when profiles are added: these SHA-256
/// digests (`sha256sum`) were written by the build that last changed the profile on purpose.
final class ProfileDigestTests: XCTestCase {
    private func digests(_ config: CityConfig) throws -> [String: String] {
        let dir = try TestSupport.temporaryDirectory("digest-\(config.profile.rawValue)-\(config.seed)")
        try generateCity(config: config, to: dir)
        var out: [String: String] = [:]
        for name in [CityFileWriter.buildingsFile, CityFileWriter.addressesFile, CityFileWriter.truthFile, CityFileWriter.summaryFile] {
            out[name] = SHA256Digest.hex(try Data(contentsOf: dir.appendingPathComponent(name)))
        }
        return out
    }

    func testDigestOfKnownInput() {
        XCTAssertEqual(SHA256Digest.hex(Data("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256Digest.hex(Data()), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testDefaultProfileIsUnchanged() throws {
        XCTAssertEqual(try digests(CityConfig(buildings: 2000, seed: 1)), [
            "buildings.geojson": "0b4c01b29700970b85921f0941d9ae4867d5b7ca1af05ca649349c9a157263cf",
            "addresses.geojson": "9595e1ec53bc76712e031b939774cb3217df681c551bd6a3bb14eae873783b59",
            "truth.csv": "83b5ad8652fe4038e1dd370284694714083b06d366cddf97975e7ca2b1ad6ef7",
            "city.json": "9c165368d6473b13517d4e9fdc91a17de52e69c1e5d808f8b149a1c317220d9b",
        ])
    }

    func testHardProfileIsUnchanged() throws {
        XCTAssertEqual(try digests(CityConfig(buildings: 2000, seed: 7, profile: .hard)), [
            "buildings.geojson": "570abb2fa134eba8a877564eac39a1fa22ebbb47b4cbb336323eb55b96e16bc4",
            "addresses.geojson": "80732f2099010c04bae6a98db23546401d816a95202acb1ef74e68bfde57ddea",
            "truth.csv": "687acc0a2a7051b57e8bad07dd2d6df2c288e4e103924287ed9e392b0ec846a5",
            "city.json": "531d9770e6516ca341a73deed879fad9a5a165985512f7e708664d1baef8aa49",
        ])
    }
}
