/// Parquet physical types.
public enum ParquetPhysicalType: String, Sendable, Equatable {
    case boolean, int32, int64, int96, float, double, byteArray, fixedLenByteArray

    init?(thrift v: Int32) {
        switch v {
        case 0: self = .boolean
        case 1: self = .int32
        case 2: self = .int64
        case 3: self = .int96
        case 4: self = .float
        case 5: self = .double
        case 6: self = .byteArray
        case 7: self = .fixedLenByteArray
        default: return nil
        }
    }
}

/// Parquet `LogicalType` union (parquet.thrift, format 2.11+).
public enum ParquetLogicalType: Sendable, Equatable, CustomStringConvertible {
    case string, map, list, enumeration, decimal(scale: Int32, precision: Int32), date
    case time(unit: String, utc: Bool), timestamp(unit: String, utc: Bool)
    case integer(bitWidth: Int8, signed: Bool)
    case unknown, json, bson, uuid, float16, variant
    /// GEOMETRY logical type; `crs` as stored (nil = default OGC:CRS84).
    case geometry(crs: String?)
    /// GEOGRAPHY logical type; `algorithm` is the edge interpolation algorithm id (0 = spherical).
    case geography(crs: String?, algorithm: Int32?)
    case other(fieldId: Int16)

    public var description: String {
        switch self {
        case .string: return "STRING"
        case .map: return "MAP"
        case .list: return "LIST"
        case .enumeration: return "ENUM"
        case let .decimal(s, p): return "DECIMAL(\(p),\(s))"
        case .date: return "DATE"
        case let .time(u, utc): return "TIME(\(u),utc=\(utc))"
        case let .timestamp(u, utc): return "TIMESTAMP(\(u),utc=\(utc))"
        case let .integer(w, s): return "INT(\(w),\(s ? "signed" : "unsigned"))"
        case .unknown: return "UNKNOWN"
        case .json: return "JSON"
        case .bson: return "BSON"
        case .uuid: return "UUID"
        case .float16: return "FLOAT16"
        case .variant: return "VARIANT"
        case let .geometry(crs): return "GEOMETRY(crs=\(crs ?? ""))"
        case let .geography(crs, a): return "GEOGRAPHY(crs=\(crs ?? ""),algorithm=\(a.map(String.init) ?? ""))"
        case let .other(id): return "LOGICAL(\(id))"
        }
    }
}

enum ParquetEncoding {
    static let plain: Int32 = 0
    static let plainDictionary: Int32 = 2
    static let rle: Int32 = 3
    static let bitPacked: Int32 = 4
    static let deltaBinaryPacked: Int32 = 5
    static let deltaLengthByteArray: Int32 = 6
    static let deltaByteArray: Int32 = 7
    static let rleDictionary: Int32 = 8
    static let byteStreamSplit: Int32 = 9

    static func name(_ e: Int32) -> String {
        switch e {
        case 0: return "PLAIN"
        case 2: return "PLAIN_DICTIONARY"
        case 3: return "RLE"
        case 4: return "BIT_PACKED"
        case 5: return "DELTA_BINARY_PACKED"
        case 6: return "DELTA_LENGTH_BYTE_ARRAY"
        case 7: return "DELTA_BYTE_ARRAY"
        case 8: return "RLE_DICTIONARY"
        case 9: return "BYTE_STREAM_SPLIT"
        default: return "encoding #\(e)"
        }
    }
}

enum ParquetCodec {
    static let uncompressed: Int32 = 0
    static let snappy: Int32 = 1
    static let gzip: Int32 = 2
    static let lzo: Int32 = 3
    static let brotli: Int32 = 4
    static let lz4: Int32 = 5
    static let zstd: Int32 = 6
    static let lz4Raw: Int32 = 7

    static func name(_ c: Int32) -> String {
        switch c {
        case 0: return "UNCOMPRESSED"
        case 1: return "SNAPPY"
        case 2: return "GZIP"
        case 3: return "LZO"
        case 4: return "BROTLI"
        case 5: return "LZ4"
        case 6: return "ZSTD"
        case 7: return "LZ4_RAW"
        default: return "codec #\(c)"
        }
    }
}

/// Parquet ConvertedType values used by this reader.
enum ConvertedType {
    static let utf8: Int32 = 0
    static let map: Int32 = 1
    static let mapKeyValue: Int32 = 2
    static let list: Int32 = 3
    static let enumeration: Int32 = 4
    static let uint8: Int32 = 11
    static let uint16: Int32 = 12
    static let uint32: Int32 = 13
    static let uint64: Int32 = 14
    static let json: Int32 = 19
}
