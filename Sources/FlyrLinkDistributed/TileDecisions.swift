import FlyrLink
import Foundation

/// A tile's decisions: for each of its own addresses (by id, in id order), the building it is
/// linked to (by id) with the link's method, confidence and distance, or why it is not. A
/// little-endian binary file whose doubles come back to the bit; `flyr-link run --decisions`
/// reads every tile's and makes the outputs from them. By id, not by the run's index: a tile that
/// reads part of a source cannot know a row's index in the whole run.
public struct TileDecisions: Sendable {
    struct Outcome: Sendable, Equatable {
        var address: String
        /// nil: unlinked.
        var building: String?
        var method: MatchMethod
        var confidence: Double
        var distance: Double
        var unlinked: UnlinkedReason?
    }

    public var tile: Int
    /// The SHA-256 of the plan the tile was decided under (`TilePlan.readWithDigest`).
    public var plan = ""
    var outcomes: [Outcome]

    static let magic: [UInt8] = Array("FLTD".utf8)
    static let version: UInt32 = 3
    static let headerBytes = 20
    static let noBuilding = UInt16.max

    public static func fileName(tile: Int) -> String {
        String(format: "tile-%06d.decisions", tile)
    }

    /// Written whole or not at all (a temporary sibling, renamed): a task killed half-way leaves nothing.
    public func write(to path: String) throws(OutputError) {
        var out: [UInt8] = Self.magic
        Self.append(Self.version, to: &out)
        Self.append(UInt32(tile), to: &out)
        Self.append(UInt64(outcomes.count), to: &out)
        Self.append(UInt16(plan.utf8.count), to: &out)
        out += plan.utf8
        for o in outcomes {
            guard o.address.utf8.count < Self.noBuilding, (o.building?.utf8.count ?? 0) < Self.noBuilding else {
                throw OutputError("tile \(tile): an id of 65,535 bytes or more (\(o.address.prefix(40))…)")
            }
            Self.append(UInt16(o.address.utf8.count), to: &out)
            out += o.address.utf8
            Self.append(o.building.map { UInt16($0.utf8.count) } ?? Self.noBuilding, to: &out)
            out += o.building?.utf8 ?? "".utf8
            out.append(o.unlinked.map { UInt8($0.ordinal) } ?? 0xFF)
            out.append(o.method == .exact ? 0 : 1)
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
        var at = 0
        func take(_ n: Int) throws(InputError) -> ArraySlice<UInt8> {
            guard n >= 0, at + n <= bytes.count else { throw InputError("decisions: \(path) is cut short") }
            defer { at += n }
            return bytes[at..<at + n]
        }
        func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(InputError) -> T {
            try take(MemoryLayout<T>.size).reversed().reduce(0) { $0 << 8 | T($1) }
        }
        guard bytes.count >= headerBytes, Array(bytes[0..<4]) == magic else {
            throw InputError("decisions: \(path) is not a flyr-link tile's decisions")
        }
        at = 4
        guard try integer(UInt32.self) == version else { throw InputError("decisions: \(path) is of another version than \(version)") }
        let tile = Int(try integer(UInt32.self))
        let count = Int(try integer(UInt64.self))
        let plan = String(decoding: try take(Int(try integer(UInt16.self))), as: UTF8.self)
        var outcomes: [Outcome] = []
        for k in 0..<count {
            let address = String(decoding: try take(Int(try integer(UInt16.self))), as: UTF8.self)
            let length = try integer(UInt16.self)
            let building = length == noBuilding ? nil : String(decoding: try take(Int(length)), as: UTF8.self)
            let reason = try take(1).first!, method = try take(1).first!
            guard reason == 0xFF || reason < 3, method < 2, (reason == 0xFF) == (building != nil) else {
                throw InputError("decisions: \(path): record \(k) is not an outcome")
            }
            outcomes.append(Outcome(address: address, building: building, method: method == 0 ? .exact : .proximity,
                                    confidence: Double(bitPattern: try integer(UInt64.self)), distance: Double(bitPattern: try integer(UInt64.self)),
                                    unlinked: reason == 0xFF ? nil : UnlinkedReason(ordinal: Int(reason))))
        }
        guard at == bytes.count else { throw InputError("decisions: \(path) has \(bytes.count - at) bytes after its last record") }
        return TileDecisions(tile: tile, plan: plan, outcomes: outcomes)
    }

    private static func append<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out += $0 }
    }
}

extension TileDecisions {
    static let planName = "plan.json"

    /// Every tile's decisions in `directory` (beside its plan.json), as one run's: links in address
    /// order and each address's unlinked reason. The plan must be that of `options` (the same
    /// sources, unchanged, and the same linking), and every address decided by exactly one tile.
    static func merged(_ directory: String, options: RunOptions, addressIDs: [String], buildingIDs: [String])
        throws(InputError) -> (links: [Link], unlinked: [UnlinkedReason?]) {
        let (plan, digest) = try TilePlan.readWithDigest(directory + "/" + planName)
        guard options.linksLike(plan.options) else {
            throw InputError("decisions: the plan in \(directory) was made for other sources or linking options than this run's")
        }
        try plan.checkInputs(hashing: true)
        guard plan.addresses == addressIDs.count, plan.buildings == buildingIDs.count else {
            throw InputError("decisions: the plan has \(plan.addresses) addresses and \(plan.buildings) buildings, this run \(addressIDs.count) and \(buildingIDs.count); make the plan again")
        }
        var all: [Outcome] = []
        all.reserveCapacity(addressIDs.count)
        for tile in plan.tiles {
            let path = directory + "/" + fileName(tile: tile.index)
            guard FileManager.default.fileExists(atPath: path) else { throw InputError("decisions: tile \(tile.index) has no decisions (\(path))") }
            let part = try read(path)
            guard part.tile == tile.index else { throw InputError("decisions: \(path) holds tile \(part.tile)'s decisions, not tile \(tile.index)'s") }
            guard part.plan == digest else { throw InputError("decisions: tile \(tile.index)'s decisions were made under another plan than \(directory)/\(planName)") }
            all += part.outcomes
        }
        // The run's addresses are in id order: the decisions, in the same order, pair with them one by one.
        all.sort { IDOrder.precedes($0.address, $1.address) }
        guard all.count == addressIDs.count else {
            throw InputError("decisions: the tiles decided \(all.count) addresses, the run has \(addressIDs.count); make the plan again")
        }
        var unlinked = [UnlinkedReason?](repeating: nil, count: addressIDs.count)
        var links: [Link] = []
        for (a, o) in all.enumerated() {
            guard o.address == addressIDs[a] else {
                throw InputError("decisions: address \(addressIDs[a]) has no decision, or another is decided twice (\(o.address))")
            }
            if let reason = o.unlinked { unlinked[a] = reason; continue }
            let b = Self.index(of: o.building!, in: buildingIDs)
            guard let b else { throw InputError("decisions: address \(o.address) is linked to building \(o.building!), which is not in the run") }
            links.append(Link(addressIndex: a, buildingIndex: b, method: o.method, confidence: o.confidence, distance: o.distance))
        }
        return (links, unlinked)
    }

    /// The decisions of a tile's addresses (`addressIDs`, its own and its halo's, in id order), from
    /// the files of the tiles whose boxes meet its halo, as one run's: links in address order and
    /// each address's unlinked reason (a tile's outputs pass).
    static func around(_ task: TileTask, _ directory: String, addressIDs: [String], buildingIDs: [String])
        throws(InputError) -> (links: [Link], unlinked: [UnlinkedReason?]) {
        let (plan, digest) = try TilePlan.readWithDigest(directory + "/" + planName)
        guard plan.tiles.indices.contains(task.tile.index), plan.tiles[task.tile.index] == task.tile else {
            throw InputError("decisions: tile \(task.tile.index) is not a tile of the plan in \(directory)")
        }
        var near: [Outcome] = []
        for tile in plan.tiles where tile.bounds.meets(task.tile.bounds, within: task.halo.addresses) {
            let path = directory + "/" + fileName(tile: tile.index)
            guard FileManager.default.fileExists(atPath: path) else { throw InputError("decisions: tile \(tile.index) has no decisions (\(path))") }
            let part = try read(path)
            guard part.tile == tile.index, part.plan == digest else {
                throw InputError("decisions: \(path) is not tile \(tile.index)'s decisions under the plan in \(directory)")
            }
            near += part.outcomes
        }
        near.sort { IDOrder.precedes($0.address, $1.address) }
        var unlinked = [UnlinkedReason?](repeating: nil, count: addressIDs.count)
        var links: [Link] = []
        var k = 0
        for (a, id) in addressIDs.enumerated() {
            while k < near.count, IDOrder.precedes(near[k].address, id) { k += 1 }
            guard k < near.count, near[k].address == id else {
                throw InputError("decisions: address \(id), near tile \(task.tile.index), has no decision in the tiles around it")
            }
            let o = near[k]
            if let reason = o.unlinked { unlinked[a] = reason; continue }
            guard let b = Self.index(of: o.building!, in: buildingIDs) else {
                throw InputError("decisions: address \(id) is linked to building \(o.building!), which tile \(task.tile.index) does not read")
            }
            links.append(Link(addressIndex: a, buildingIndex: b, method: o.method, confidence: o.confidence, distance: o.distance))
        }
        return (links, unlinked)
    }

    /// `id`'s index in `ids` (in id order), by halving.
    static func index(of id: String, in ids: [String]) -> Int? {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if IDOrder.precedes(ids[mid], id) { low = mid + 1 } else { high = mid }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }
}
