/// A FlatGeobuf column's value type, as numbered in the format's header.fbs.
enum FlatGeobufColumnType: UInt8, Sendable {
    case byte = 0, ubyte, bool, short, ushort, int, uint, long, ulong, float, double, string, json, dateTime, binary

    /// The name header.fbs gives it ("String", "DateTime", …), for `inspect`.
    var name: String {
        ["Byte", "UByte", "Bool", "Short", "UShort", "Int", "UInt", "Long", "ULong", "Float", "Double", "String", "Json", "DateTime", "Binary"][Int(rawValue)]
    }
}

/// The FlatGeobuf header (header.fbs): the schema every feature is read against.
struct FlatGeobufHeader: Sendable {
    struct Column: Sendable {
        var name: String
        var type: FlatGeobufColumnType
        var width: Int32
        var precision: Int32
        var scale: Int32
    }

    struct CRS: Sendable {
        var org: String?
        var code: Int32
        var wkt: String?
    }

    var name: String?
    /// 0 (Unknown) when each feature's geometry carries its own type.
    var geometryType: UInt8
    var hasZ: Bool
    var hasM: Bool
    /// nil when the header has no column list at all.
    var columns: [Column]?
    /// 0 when the writer did not know the count (a streamed file): features run to the end.
    var featuresCount: UInt64
    var indexNodeSize: UInt16
    var crs: CRS?

    /// "fgb" and major version 3; GDAL looks at nothing more of the magic either.
    static let magic: [UInt8] = [0x66, 0x67, 0x62, 0x03]
    /// Magic bytes, then the header's uint32 size.
    static let prefixSize = 12
    /// GDAL refuses headers larger than this.
    static let maxSize = 10 * 1024 * 1024
    /// GDAL refuses files claiming more features than this.
    static let maxFeatures: UInt64 = 100_000_000_000

    init(_ bytes: UnsafeRawBufferPointer) throws(FlatGeobufProblem) {
        let what = "header"
        let h = try FlatBufferTable.root(of: bytes, what)
        name = try h.string(0, "header name")
        geometryType = try h.uint8(2, default: 0, what)
        hasZ = try h.uint8(3, default: 0, what) != 0
        hasM = try h.uint8(4, default: 0, what) != 0
        if let list = try h.vector(7, elementSize: 4, "header columns") {
            var columns: [Column] = []
            columns.reserveCapacity(list.count)
            for i in 0..<list.count {
                let c = try h.table(in: list, i, "column \(i)")
                guard let name = try c.string(0, "column \(i) name") else { throw .corrupt("column \(i) has no name") }
                let rawType = try c.uint8(1, default: 0, "column \(name)")
                guard let type = FlatGeobufColumnType(rawValue: rawType) else {
                    throw .needsGDAL("column \(name) has type \(rawType), which this reader does not know")
                }
                columns.append(Column(name: name, type: type, width: try c.int32(4, default: -1, "column \(name)"),
                                      precision: try c.int32(5, default: -1, "column \(name)"),
                                      scale: try c.int32(6, default: -1, "column \(name)")))
            }
            self.columns = columns
        }
        featuresCount = try h.uint64(8, default: 0, what)
        indexNodeSize = try h.uint16(9, default: 16, what)
        if let c = try h.table(10, "header crs") {
            crs = CRS(org: try c.string(0, "crs org"), code: try c.int32(1, default: 0, "crs code"), wkt: try c.string(4, "crs wkt"))
        }
    }

    /// Bytes of the packed Hilbert R-tree between the header and the first feature.
    /// GDAL sizes the index for 16-item nodes whatever the header says, so other node sizes go to GDAL.
    func indexSize() throws(FlatGeobufProblem) -> Int {
        guard indexNodeSize > 0 else { return 0 }
        guard featuresCount <= FlatGeobufHeader.maxFeatures else { throw .needsGDAL("header claims \(featuresCount) features") }
        guard indexNodeSize == 16, featuresCount > 0 else {
            throw .needsGDAL("spatial index with node size \(indexNodeSize) for \(featuresCount) features")
        }
        return FlatGeobufIndex(featureCount: Int(featuresCount), nodeSize: Int(indexNodeSize)).nodeCount * FlatGeobufIndex.nodeBytes
    }
}
