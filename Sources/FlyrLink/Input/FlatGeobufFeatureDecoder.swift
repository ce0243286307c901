/// Turns one feature's flatbuffer (feature.fbs) into a `SourceTable.Record`: the geometry
/// straight into `SourceGeometry`, the canonical fields looked up as `GDALSourceReader` does
/// (candidates in order, the first with a non-empty value wins). One decoder per thread: it
/// keeps scratch space and its own count of which candidate supplied each field.
struct FlatGeobufFeatureDecoder {
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
        var columnCount: Int
    }

    let plan: Plan
    /// How often each lookup supplied its field's value.
    private(set) var hits: [[Int]]
    private var slotValues: [String?]
    private var seen: [UInt32]
    private var stamp: UInt32 = 0

    init(plan: Plan) {
        self.plan = plan
        hits = plan.lookups.map { [Int](repeating: 0, count: $0.count) }
        slotValues = [String?](repeating: nil, count: plan.wantedCount)
        seen = [UInt32](repeating: 0, count: plan.columnCount)
    }

    // Feature table slots.
    private static let geometrySlot = 0, propertiesSlot = 1

    mutating func decode(_ bytes: UnsafeRawBufferPointer, ordinal: Int) throws(FlatGeobufProblem) -> SourceTable.Record {
        let feature = try FlatBufferTable.root(of: bytes, "feature")
        var record = SourceTable.Record(ordinal: ordinal, values: try values(feature), wkb: nil)
        if let g = try feature.table(Self.geometrySlot, "feature geometry") {
            var type = plan.headerGeometryType
            if type == 0 { type = try FlatGeobufGeometry.type(of: g) }
            record.geometry = try plan.geometry.decode(g, type: type)
        }
        return record
    }

    private mutating func values(_ feature: FlatBufferTable) throws(FlatGeobufProblem) -> [String?] {
        for i in slotValues.indices { slotValues[i] = nil }
        stamp &+= 1
        if stamp == 0 {  // wrapped: old marks could look current
            for i in seen.indices { seen[i] = 0 }
            stamp = 1
        }
        if let props = try feature.bytes(Self.propertiesSlot, "feature properties") {
            try plan.properties.read(props, into: &slotValues, seen: &seen, stamp: stamp)
        }
        let tags = plan.tagsSlot.flatMap { slotValues[$0] }.map(OSMTags.parse) ?? [:]
        var values: [String?] = []
        values.reserveCapacity(plan.lookups.count)
        for (f, list) in plan.lookups.enumerated() {
            var value: String?
            for (k, lookup) in list.enumerated() {
                switch lookup {
                case .column(let slot): value = slotValues[slot]
                case .tag(let key): value = tags[key]
                }
                if let v = value, !v.isEmpty {
                    hits[f][k] += 1
                    break
                }
                value = nil
            }
            values.append(value)
        }
        return values
    }
}
