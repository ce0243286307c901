import Foundation

/// A tile's decisions: for each of its own addresses (by its index in the whole run), the building
/// it is linked to (its index in the whole run) with the link's method, confidence and distance,
/// or why it is not. A little-endian binary file, 28 bytes an address, so that the doubles come
/// back to the bit; `flyr-link run --decisions` reads every tile's and makes the outputs from them.
public struct TileDecisions: Sendable {
    struct Outcome: Sendable, Equatable {
        var address: Int32
        /// -1: unlinked.
        var building: Int32
        var method: MatchMethod
        var confidence: Double
        var distance: Double
        var unlinked: ProximityMatcher.UnlinkedReason?
    }

    public var tile: Int
    var outcomes: [Outcome]

    static let magic: [UInt8] = Array("FLTD".utf8)
    static let version: UInt32 = 1
    static let headerBytes = 20
    static let recordBytes = 28

    public static func fileName(tile: Int) -> String {
        let digits = String(tile)
        return "tile-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".decisions"
    }

    /// Written whole or not at all (a temporary sibling, renamed): a task killed half-way leaves nothing.
    public func write(to path: String) throws(OutputError) {
        var out: [UInt8] = Self.magic
        out.reserveCapacity(Self.headerBytes + outcomes.count * Self.recordBytes)
        Self.append(Self.version, to: &out)
        Self.append(UInt32(tile), to: &out)
        Self.append(UInt64(outcomes.count), to: &out)
        for o in outcomes {
            Self.append(UInt32(bitPattern: o.address), to: &out)
            Self.append(UInt32(bitPattern: o.building), to: &out)
            out.append(o.unlinked.map { UInt8($0.ordinal) } ?? 0xFF)
            out.append(o.method == .exact ? 0 : 1)
            out += [0, 0]
            Self.append(o.confidence.bitPattern, to: &out)
            Self.append(o.distance.bitPattern, to: &out)
        }
        do { try Data(out).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw OutputError("tile \(tile): cannot write \(path): \(error.localizedDescription)")
        }
    }

    static func read(_ path: String) throws(InputError) -> TileDecisions {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("decisions: cannot read \(path)") }
        let bytes = [UInt8](data)
        guard bytes.count >= headerBytes, Array(bytes[0..<4]) == magic, word(bytes, 4) == version else {
            throw InputError("decisions: \(path) is not a flyr-link tile's decisions (version \(version))")
        }
        let tile = Int(word(bytes, 8))
        let count = Int(word(bytes, 12)) | Int(word(bytes, 16)) << 32
        guard bytes.count == headerBytes + count * recordBytes else {
            throw InputError("decisions: \(path) is cut short (\(bytes.count) bytes for \(count) addresses)")
        }
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(count)
        for k in 0..<count {
            let at = headerBytes + k * recordBytes
            let reason = bytes[at + 8]
            guard reason == 0xFF || reason < 3, bytes[at + 9] < 2 else { throw InputError("decisions: \(path): record \(k) is not an outcome") }
            outcomes.append(Outcome(address: Int32(bitPattern: word(bytes, at)), building: Int32(bitPattern: word(bytes, at + 4)),
                                    method: bytes[at + 9] == 0 ? .exact : .proximity,
                                    confidence: Double(bitPattern: UInt64(word(bytes, at + 12)) | UInt64(word(bytes, at + 16)) << 32),
                                    distance: Double(bitPattern: UInt64(word(bytes, at + 20)) | UInt64(word(bytes, at + 24)) << 32),
                                    unlinked: reason == 0xFF ? nil : ProximityMatcher.UnlinkedReason(ordinal: Int(reason))))
        }
        return TileDecisions(tile: tile, outcomes: outcomes)
    }

    private static func append<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out += $0 }
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}

extension TileDecisions {
    static let planName = "plan.json"

    /// Every tile's decisions in `directory` (beside its plan.json), as one run's: links in address
    /// order and each address's unlinked reason. The plan must be that of `options` (the same
    /// sources, unchanged, and the same linking), and every address decided by exactly one tile.
    static func merged(_ directory: String, options: RunOptions, addresses: Int, buildings: Int)
        throws(InputError) -> (links: [Link], unlinked: [ProximityMatcher.UnlinkedReason?]) {
        let plan = try TilePlan.read(directory + "/" + planName)
        guard options.linksLike(plan.options) else {
            throw InputError("decisions: the plan in \(directory) was made for other sources or linking options than this run's")
        }
        try plan.checkInputs()
        guard plan.addresses == addresses, plan.buildings == buildings else {
            throw InputError("decisions: the plan has \(plan.addresses) addresses and \(plan.buildings) buildings, this run \(addresses) and \(buildings); make the plan again")
        }
        var decided = [Bool](repeating: false, count: addresses)
        var unlinked = [ProximityMatcher.UnlinkedReason?](repeating: nil, count: addresses)
        var links: [Link] = []
        for tile in plan.tiles {
            let path = directory + "/" + fileName(tile: tile.index)
            guard FileManager.default.fileExists(atPath: path) else { throw InputError("decisions: tile \(tile.index) has no decisions (\(path))") }
            let part = try read(path)
            guard part.tile == tile.index else { throw InputError("decisions: \(path) holds tile \(part.tile)'s decisions, not tile \(tile.index)'s") }
            for o in part.outcomes {
                let a = Int(o.address)
                guard a >= 0, a < addresses, !decided[a], o.building < buildings else {
                    throw InputError("decisions: tile \(tile.index) decides address \(a), which is not in the run or another tile decided")
                }
                decided[a] = true
                if let reason = o.unlinked { unlinked[a] = reason } else {
                    links.append(Link(addressIndex: a, buildingIndex: Int(o.building), method: o.method, confidence: o.confidence, distance: o.distance))
                }
            }
        }
        if let a = decided.firstIndex(of: false) { throw InputError("decisions: no tile decided address \(a) (\(decided.filter { !$0 }.count) addresses undecided)") }
        links.sort { $0.addressIndex < $1.addressIndex }
        return (links, unlinked)
    }
}
