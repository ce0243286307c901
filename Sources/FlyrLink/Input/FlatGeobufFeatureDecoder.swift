/// Turns one feature's flatbuffer (feature.fbs) into a `SourceTable.Record`: the geometry
/// straight into `SourceGeometry`, the canonical fields looked up as `GDALSourceReader` does
/// (candidates in order, the first with a non-empty value wins). One decoder per thread: it
/// keeps scratch space and its own count of which candidate supplied each field. Its tables and
/// scratch are plain buffers, for the same reason as `FlatGeobufProperties`'.
final class FlatGeobufFeatureDecoder {
    /// Where a canonical field's candidate value comes from.
    enum Lookup: Sendable {
        /// A column's value, by its slot among the wanted columns.
        case column(Int)
        /// A key in the `other_tags` column (a file converted from OSM).
        case tag(String)
    }

    /// What every decoder of a file shares.
    struct Plan: Sendable {
        var headerGeometryType: UInt8
        var geometry: FlatGeobufGeometry
        var properties: FlatGeobufProperties
        var lookups: [[Lookup]]
        /// Slot of `other_tags` when some lookup reads a tag.
        var tagsSlot: Int?
        var wantedCount: Int
    }

    private let headerGeometryType: UInt8
    private let geometry: FlatGeobufGeometry
    private let properties: FlatGeobufProperties
    private let fieldCount: Int
    /// Every field's candidates one after another: a slot (≥ 0), or a tag as -1 - its index in `tagKeys`.
    private let candidates: UnsafeMutableBufferPointer<Int>
    /// Field f's candidates are candidates[fieldStart[f]..<fieldStart[f + 1]].
    private let fieldStart: UnsafeMutableBufferPointer<Int>
    private let tagKeys: [String]
    private let tagsSlot: Int?
    /// How often each candidate supplied its field's value (same order as `candidates`).
    private let hits: UnsafeMutableBufferPointer<Int>
    private let slotValues: UnsafeMutableBufferPointer<String?>
    private let seen: UnsafeMutableBufferPointer<UInt32>
    private var stamp: UInt32 = 0

    init(plan: Plan) {
        headerGeometryType = plan.headerGeometryType
        geometry = plan.geometry
        properties = plan.properties
        fieldCount = plan.lookups.count
        tagsSlot = plan.tagsSlot
        var flat: [Int] = [], starts: [Int] = [0], keys: [String] = []
        for list in plan.lookups {
            for lookup in list {
                switch lookup {
                case .column(let slot): flat.append(slot)
                case .tag(let key): keys.append(key); flat.append(-keys.count)
                }
            }
            starts.append(flat.count)
        }
        tagKeys = keys
        candidates = .allocate(capacity: flat.count)
        _ = candidates.initialize(from: flat)
        fieldStart = .allocate(capacity: starts.count)
        _ = fieldStart.initialize(from: starts)
        hits = .allocate(capacity: flat.count)
        hits.initialize(repeating: 0)
        slotValues = .allocate(capacity: plan.wantedCount)
        slotValues.initialize(repeating: nil)
        seen = .allocate(capacity: plan.properties.columnCount)
        seen.initialize(repeating: 0)
    }

    deinit {
        candidates.deallocate()
        fieldStart.deallocate()
        hits.deallocate()
        _ = slotValues.deinitialize()
        slotValues.deallocate()
        seen.deallocate()
    }

    /// The candidate hit counts as `[field][candidate]`.
    var hitCounts: [[Int]] {
        (0..<fieldCount).map { f in Array(hits[fieldStart[f]..<fieldStart[f + 1]]) }
    }

    // Feature table slots.
    private static let geometrySlot = 0, propertiesSlot = 1

    func decode(_ bytes: UnsafeRawBufferPointer, ordinal: Int) throws(FlatGeobufProblem) -> SourceTable.Record {
        let feature = try FlatBufferTable.root(of: bytes, "feature")
        var record = SourceTable.Record(ordinal: ordinal, values: try values(feature), wkb: nil)
        if let g = try feature.table(Self.geometrySlot, "feature geometry") {
            var type = headerGeometryType
            if type == 0 { type = try FlatGeobufGeometry.type(of: g) }
            record.geometry = try geometry.decode(g, type: type)
        }
        return record
    }

    private func values(_ feature: FlatBufferTable) throws(FlatGeobufProblem) -> [String?] {
        for i in slotValues.indices { slotValues[i] = nil }
        stamp &+= 1
        if stamp == 0 {  // wrapped: old marks could look current
            for i in seen.indices { seen[i] = 0 }
            stamp = 1
        }
        if let props = try feature.bytes(Self.propertiesSlot, "feature properties") {
            try properties.read(props, into: slotValues, seen: seen, stamp: stamp)
        }
        let tags = tagsSlot.flatMap { slotValues[$0] }.map(OSMTags.parse)
        // reserveCapacity and append, not Array(unsafeUninitializedCapacity:): that one is not
        // specialised and looks up the array's type metadata on every call.
        var values: [String?] = []
        values.reserveCapacity(fieldCount)
        for f in 0..<fieldCount {
            var value: String?
            for c in fieldStart[f]..<fieldStart[f + 1] {
                let k = candidates[c]
                let v = k >= 0 ? slotValues[k] : tags?[tagKeys[-1 - k]]
                if let v, !v.isEmpty {
                    hits[c] += 1
                    value = v
                    break
                }
            }
            values.append(value)
        }
        return values
    }
}
