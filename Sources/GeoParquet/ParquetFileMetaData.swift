/// Model of the Parquet footer (`FileMetaData` in parquet.thrift) and its Thrift parsing.
/// Unknown fields are skipped; required fields are checked.

struct SchemaElement: Sendable {
    var type: Int32?
    var typeLength: Int32?
    var repetition: Int32?       // 0 REQUIRED, 1 OPTIONAL, 2 REPEATED
    var name: String = ""
    var numChildren: Int32?
    var convertedType: Int32?
    var logicalType: ParquetLogicalType?
}

struct KeyValue: Sendable {
    var key: String
    var value: String?
}

struct ColumnStatistics: Sendable {
    var max: [UInt8]?
    var min: [UInt8]?
    var nullCount: Int64?
    var maxValue: [UInt8]?
    var minValue: [UInt8]?

    /// Preferred min/max (the newer fields, falling back to the deprecated ones).
    var effectiveMin: [UInt8]? { minValue ?? min }
    var effectiveMax: [UInt8]? { maxValue ?? max }
}

struct GeospatialStatistics: Sendable {
    var bbox: BoundingBox?
    var geospatialTypes: [Int32] = []
}

struct ColumnMetaData: Sendable {
    var type: Int32 = -1
    var encodings: [Int32] = []
    var pathInSchema: [String] = []
    var codec: Int32 = 0
    var numValues: Int64 = 0
    var totalUncompressedSize: Int64 = 0
    var totalCompressedSize: Int64 = 0
    var dataPageOffset: Int64 = 0
    var indexPageOffset: Int64?
    var dictionaryPageOffset: Int64?
    var statistics: ColumnStatistics?
    var geospatialStatistics: GeospatialStatistics?
}

struct ColumnChunk: Sendable {
    var filePath: String?
    var fileOffset: Int64 = 0
    var metaData: ColumnMetaData?
}

struct RowGroup: Sendable {
    var columns: [ColumnChunk] = []
    var totalByteSize: Int64 = 0
    var numRows: Int64 = 0
}

struct FileMetaData: Sendable {
    var version: Int32 = 0
    var schema: [SchemaElement] = []
    var numRows: Int64 = 0
    var rowGroups: [RowGroup] = []
    var keyValueMetadata: [KeyValue] = []
    var createdBy: String?
}

extension FileMetaData {
    static func parse(_ bytes: [UInt8]) throws -> FileMetaData {
        var d = ThriftCompactDecoder(bytes: bytes)
        var m = FileMetaData()
        var seen = (schema: false, rows: false, groups: false)
        try d.readStruct { d, id, t in
            switch id {
            case 1: m.version = try d.readI32(t)
            case 2: m.schema = try d.readList(t) { d, et in try SchemaElement.parse(&d, et) }; seen.schema = true
            case 3: m.numRows = try d.readInt(t); seen.rows = true
            case 4: m.rowGroups = try d.readList(t) { d, et in try RowGroup.parse(&d, et) }; seen.groups = true
            case 5: m.keyValueMetadata = try d.readList(t) { d, et in try KeyValue.parse(&d, et) }
            case 6: m.createdBy = try d.readString(t)
            default: try d.skip(t)
            }
        }
        guard seen.schema, seen.rows, seen.groups else {
            throw DecodeError.metadata("FileMetaData lacks required schema/num_rows/row_groups")
        }
        return m
    }
}

private func expectStruct(_ t: UInt8, _ what: String) throws {
    guard t == ThriftCompactDecoder.WireType.structure else {
        throw DecodeError.metadata("Thrift type \(t) where struct \(what) was expected")
    }
}

extension SchemaElement {
    static func parse(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> SchemaElement {
        try expectStruct(t, "SchemaElement")
        var e = SchemaElement()
        var hasName = false
        try d.readStruct { d, id, t in
            switch id {
            case 1: e.type = try d.readI32(t)
            case 2: e.typeLength = try d.readI32(t)
            case 3: e.repetition = try d.readI32(t)
            case 4: e.name = try d.readString(t); hasName = true
            case 5: e.numChildren = try d.readI32(t)
            case 6: e.convertedType = try d.readI32(t)
            case 10: e.logicalType = try parseLogicalType(&d, t)
            default: try d.skip(t)
            }
        }
        guard hasName else { throw DecodeError.metadata("schema element without a name") }
        return e
    }
}

private func parseTimeUnit(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> String {
    try expectStruct(t, "TimeUnit")
    var unit = "?"
    try d.readStruct { d, id, t in
        switch id {
        case 1: unit = "MILLIS"
        case 2: unit = "MICROS"
        case 3: unit = "NANOS"
        default: break
        }
        try d.skip(t)
    }
    return unit
}

private func parseLogicalType(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> ParquetLogicalType? {
    try expectStruct(t, "LogicalType")
    var result: ParquetLogicalType?
    try d.readStruct { d, id, t in
        switch id {
        case 1: result = .string; try d.skip(t)
        case 2: result = .map; try d.skip(t)
        case 3: result = .list; try d.skip(t)
        case 4: result = .enumeration; try d.skip(t)
        case 5:
            try expectStruct(t, "DecimalType")
            var scale: Int32 = 0, precision: Int32 = 0
            try d.readStruct { d, id, t in
                switch id {
                case 1: scale = try d.readI32(t)
                case 2: precision = try d.readI32(t)
                default: try d.skip(t)
                }
            }
            result = .decimal(scale: scale, precision: precision)
        case 6: result = .date; try d.skip(t)
        case 7, 8:
            try expectStruct(t, "Time/TimestampType")
            var utc = false, unit = "?"
            try d.readStruct { d, fid, t in
                switch fid {
                case 1: utc = try d.readBool(t)
                case 2: unit = try parseTimeUnit(&d, t)
                default: try d.skip(t)
                }
            }
            result = id == 7 ? .time(unit: unit, utc: utc) : .timestamp(unit: unit, utc: utc)
        case 10:
            try expectStruct(t, "IntType")
            var width: Int8 = 0, signed = true
            try d.readStruct { d, id, t in
                switch id {
                case 1: width = Int8(truncatingIfNeeded: try d.readInt(t))
                case 2: signed = try d.readBool(t)
                default: try d.skip(t)
                }
            }
            result = .integer(bitWidth: width, signed: signed)
        case 11: result = .unknown; try d.skip(t)
        case 12: result = .json; try d.skip(t)
        case 13: result = .bson; try d.skip(t)
        case 14: result = .uuid; try d.skip(t)
        case 15: result = .float16; try d.skip(t)
        case 16: result = .variant; try d.skip(t)
        case 17:
            try expectStruct(t, "GeometryType")
            var crs: String?
            try d.readStruct { d, id, t in
                if id == 1 { crs = try d.readString(t) } else { try d.skip(t) }
            }
            result = .geometry(crs: crs)
        case 18:
            try expectStruct(t, "GeographyType")
            var crs: String?
            var algorithm: Int32?
            try d.readStruct { d, id, t in
                switch id {
                case 1: crs = try d.readString(t)
                case 2: algorithm = try d.readI32(t)
                default: try d.skip(t)
                }
            }
            result = .geography(crs: crs, algorithm: algorithm)
        default:
            result = .other(fieldId: id)
            try d.skip(t)
        }
    }
    return result
}

extension KeyValue {
    static func parse(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> KeyValue {
        try expectStruct(t, "KeyValue")
        var kv = KeyValue(key: "", value: nil)
        try d.readStruct { d, id, t in
            switch id {
            case 1: kv.key = try d.readString(t)
            case 2: kv.value = try d.readString(t)
            default: try d.skip(t)
            }
        }
        return kv
    }
}

extension RowGroup {
    static func parse(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> RowGroup {
        try expectStruct(t, "RowGroup")
        var rg = RowGroup()
        try d.readStruct { d, id, t in
            switch id {
            case 1: rg.columns = try d.readList(t) { d, et in try ColumnChunk.parse(&d, et) }
            case 2: rg.totalByteSize = try d.readInt(t)
            case 3: rg.numRows = try d.readInt(t)
            default: try d.skip(t)
            }
        }
        guard rg.numRows >= 0 else { throw DecodeError.metadata("row group with negative row count") }
        return rg
    }
}

extension ColumnChunk {
    static func parse(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> ColumnChunk {
        try expectStruct(t, "ColumnChunk")
        var c = ColumnChunk()
        try d.readStruct { d, id, t in
            switch id {
            case 1: c.filePath = try d.readString(t)
            case 2: c.fileOffset = try d.readInt(t)
            case 3: c.metaData = try ColumnMetaData.parse(&d, t)
            default: try d.skip(t)
            }
        }
        return c
    }
}

extension ColumnMetaData {
    static func parse(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> ColumnMetaData {
        try expectStruct(t, "ColumnMetaData")
        var m = ColumnMetaData()
        try d.readStruct { d, id, t in
            switch id {
            case 1: m.type = try d.readI32(t)
            case 2: m.encodings = try d.readListI32(t)
            case 3: m.pathInSchema = try d.readList(t) { d, et in try d.readString(et) }
            case 4: m.codec = try d.readI32(t)
            case 5: m.numValues = try d.readInt(t)
            case 6: m.totalUncompressedSize = try d.readInt(t)
            case 7: m.totalCompressedSize = try d.readInt(t)
            case 9: m.dataPageOffset = try d.readInt(t)
            case 10: m.indexPageOffset = try d.readInt(t)
            case 11: m.dictionaryPageOffset = try d.readInt(t)
            case 12: m.statistics = try ColumnStatistics.parse(&d, t)
            case 17: m.geospatialStatistics = try GeospatialStatistics.parse(&d, t)
            default: try d.skip(t)
            }
        }
        return m
    }
}

extension ColumnStatistics {
    static func parse(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> ColumnStatistics {
        try expectStruct(t, "Statistics")
        var s = ColumnStatistics()
        try d.readStruct { d, id, t in
            switch id {
            case 1: s.max = try d.readBinary(t)
            case 2: s.min = try d.readBinary(t)
            case 3: s.nullCount = try d.readInt(t)
            case 5: s.maxValue = try d.readBinary(t)
            case 6: s.minValue = try d.readBinary(t)
            default: try d.skip(t)
            }
        }
        return s
    }
}

extension GeospatialStatistics {
    static func parse(_ d: inout ThriftCompactDecoder, _ t: UInt8) throws -> GeospatialStatistics {
        try expectStruct(t, "GeospatialStatistics")
        var g = GeospatialStatistics()
        try d.readStruct { d, id, t in
            switch id {
            case 1:
                try expectStruct(t, "BoundingBox")
                var v: [Double?] = [nil, nil, nil, nil]   // xmin, xmax, ymin, ymax
                try d.readStruct { d, id, t in
                    if (1...4).contains(id) { v[Int(id) - 1] = try d.readDouble(t) } else { try d.skip(t) }
                }
                if let xmin = v[0], let xmax = v[1], let ymin = v[2], let ymax = v[3] {
                    g.bbox = BoundingBox(xmin: xmin, ymin: ymin, xmax: xmax, ymax: ymax)
                }
            case 2: g.geospatialTypes = try d.readListI32(t)
            default: try d.skip(t)
            }
        }
        return g
    }
}
