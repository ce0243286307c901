/// Parquet page headers (`PageHeader`, `DataPageHeader`, `DataPageHeaderV2`, `DictionaryPageHeader`).
struct PageHeader: Sendable {
    enum PageType: Int32 { case dataPage = 0, indexPage = 1, dictionaryPage = 2, dataPageV2 = 3 }

    var type: Int32 = -1
    var uncompressedSize: Int32 = -1
    var compressedSize: Int32 = -1
    var dataPage: DataPageHeader?
    var dictionaryPage: DictionaryPageHeader?
    var dataPageV2: DataPageHeaderV2?

    struct DataPageHeader: Sendable {
        var numValues: Int32 = 0
        var encoding: Int32 = 0
        var definitionLevelEncoding: Int32 = ParquetEncoding.rle
        var repetitionLevelEncoding: Int32 = ParquetEncoding.rle
    }

    struct DictionaryPageHeader: Sendable {
        var numValues: Int32 = 0
        var encoding: Int32 = 0
    }

    struct DataPageHeaderV2: Sendable {
        var numValues: Int32 = 0
        var numNulls: Int32 = 0
        var numRows: Int32 = 0
        var encoding: Int32 = 0
        var definitionLevelsByteLength: Int32 = 0
        var repetitionLevelsByteLength: Int32 = 0
        var isCompressed = true
    }

    static func parse(_ d: inout ThriftCompactDecoder) throws -> PageHeader {
        var h = PageHeader()
        try d.readStruct { d, id, t in
            switch id {
            case 1: h.type = try d.readI32(t)
            case 2: h.uncompressedSize = try d.readI32(t)
            case 3: h.compressedSize = try d.readI32(t)
            case 5:
                var p = DataPageHeader()
                try d.readStruct { d, id, t in
                    switch id {
                    case 1: p.numValues = try d.readI32(t)
                    case 2: p.encoding = try d.readI32(t)
                    case 3: p.definitionLevelEncoding = try d.readI32(t)
                    case 4: p.repetitionLevelEncoding = try d.readI32(t)
                    default: try d.skip(t)
                    }
                }
                h.dataPage = p
            case 7:
                var p = DictionaryPageHeader()
                try d.readStruct { d, id, t in
                    switch id {
                    case 1: p.numValues = try d.readI32(t)
                    case 2: p.encoding = try d.readI32(t)
                    default: try d.skip(t)
                    }
                }
                h.dictionaryPage = p
            case 8:
                var p = DataPageHeaderV2()
                try d.readStruct { d, id, t in
                    switch id {
                    case 1: p.numValues = try d.readI32(t)
                    case 2: p.numNulls = try d.readI32(t)
                    case 3: p.numRows = try d.readI32(t)
                    case 4: p.encoding = try d.readI32(t)
                    case 5: p.definitionLevelsByteLength = try d.readI32(t)
                    case 6: p.repetitionLevelsByteLength = try d.readI32(t)
                    case 7: p.isCompressed = try d.readBool(t)
                    default: try d.skip(t)
                    }
                }
                h.dataPageV2 = p
            default: try d.skip(t)
            }
        }
        guard h.compressedSize >= 0, h.uncompressedSize >= 0 else {
            throw DecodeError.metadata("page header with missing or negative sizes")
        }
        return h
    }
}
