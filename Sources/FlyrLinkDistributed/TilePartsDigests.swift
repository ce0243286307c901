import FlyrLink
import Foundation

/// The SHA-256 of every file of a tile's parts (`TileParts`), in SHA256SUMS beside them, written
/// as sha256sum writes it (`sha256sum -c SHA256SUMS` checks them by hand). The merge checks each
/// file against it before it reads a byte of it: a part changed on disk or on its way between
/// hosts fails the merge with one line, and never gives other outputs.
enum TilePartsDigests {
    static let fileName = "SHA256SUMS"

    /// The files a tile's parts hold when the run writes `only`.
    static func files(only: RunOptions.OutputSelection) -> Set<String> {
        let streams: [TileParts.Stream] = only == .links ? [.links, .houseNumbers] : TileParts.Stream.allCases.filter { $0 != .houseNumbers }
        return Set(streams.map(\.partFile) + [TileParts.countsName])
    }

    /// SHA256SUMS's bytes for `digests` (file name → hex SHA-256), by name.
    static func text(_ digests: [String: String]) -> [UInt8] {
        Array(digests.sorted { $0.key < $1.key }.map { "\($0.value)  \($0.key)\n" }.joined().utf8)
    }

    /// SHA256SUMS's digests by file name; nil when it is not one this file's `text` would write.
    static func parse(_ bytes: [UInt8]) -> [String: String]? {
        guard bytes.last == UInt8(ascii: "\n") else { return nil }
        var digests: [String: String] = [:]
        for line in bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            guard line.count > 66, line.prefix(64).allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
                  line[line.startIndex + 64] == 0x20, line[line.startIndex + 65] == 0x20 else { return nil }
            let name = String(decoding: line.dropFirst(66), as: UTF8.self)
            guard digests.updateValue(String(decoding: line.prefix(64), as: UTF8.self), forKey: name) == nil else { return nil }
        }
        return digests
    }

    /// The first of `tiles` (in order) whose parts in `directory` are not those their tile wrote:
    /// SHA256SUMS missing or not whole, a file missing, added or of another digest; nil when
    /// every file of every tile is its tile's. The files are hashed on `threads` threads.
    static func firstProblem(tiles: [Int], in directory: String, only: RunOptions.OutputSelection, threads: Int) -> InputError? {
        let expected = files(only: only).sorted()
        let listed = tiles.map { listedDigests(tile: $0, in: directory, expected: expected) }
        // Every file of every tile hashed at once: a merge's parts are a few files of each of many tiles.
        let hashed = WorkerPool(threads: threads).map(tiles.count * expected.count, chunkSize: 1) { _, i -> String? in
            let (k, j) = i.quotientAndRemainder(dividingBy: expected.count)
            guard case .success = listed[k] else { return nil }
            return SHA256.hashFile(partsPath(directory, tiles[k]) + "/" + expected[j])
        }
        for (k, tile) in tiles.enumerated() {
            let digests: [String: String]
            switch listed[k] {
            case .failure(let problem): return problem
            case .success(let d): digests = d
            }
            for (j, name) in expected.enumerated() where hashed[k * expected.count + j] != digests[name] {
                let what = hashed[k * expected.count + j] == nil ? "cannot be read"
                    : "is not the file its tile wrote (its SHA-256 differs from \(fileName))"
                return InputError("parts: tile \(tile): \(partsPath(directory, tile))/\(name) \(what); \(again(tile, directory))")
            }
        }
        return nil
    }

    /// Whether the parts in `directory` (one tile's) are whole: every file its SHA256SUMS names, as named.
    static func areWhole(_ directory: String, only: RunOptions.OutputSelection) -> Bool {
        let expected = files(only: only).sorted()
        guard let data = FileManager.default.contents(atPath: directory + "/" + fileName), let digests = parse([UInt8](data)),
              Set(digests.keys) == Set(expected) else { return false }
        return expected.allSatisfy { SHA256.hashFile(directory + "/" + $0) == digests[$0] }
    }

    /// Tile `tile`'s SHA256SUMS, naming exactly the files `expected`.
    private static func listedDigests(tile: Int, in directory: String, expected: [String]) -> Result<[String: String], InputError> {
        let parts = partsPath(directory, tile), path = parts + "/" + fileName
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parts, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failure(InputError("parts: tile \(tile) has no parts (\(parts))"))
        }
        let again = again(tile, directory)
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(InputError("parts: tile \(tile): \(path) is missing (parts written by an older flyr-link, or not whole); \(again)"))
        }
        guard let digests = parse([UInt8](data)), Set(digests.keys) == Set(expected) else {
            return .failure(InputError("parts: tile \(tile): \(path) is not a list of the SHA-256 of the tile's \(expected.count) files; \(again)"))
        }
        return .success(digests)
    }

    /// What to do about a tile's parts that are not whole.
    private static func again(_ tile: Int, _ directory: String) -> String {
        "make the tile's parts again (flyr-link tile outputs --plan \(directory)/\(TileDecisions.planName) --tile \(tile))"
    }

    private static func partsPath(_ directory: String, _ tile: Int) -> String {
        directory + "/" + TileParts.directoryName(tile: tile)
    }
}
