/// Decodes all pages of one column chunk (flat or struct-nested, not repeated) into values.
struct ColumnChunkDecoder {
    let leaf: LeafColumn
    let kind: OutputKind
    let codec: Int32

    /// A page may hold at most max(this, 8 × its uncompressed size) values: bounds memory for
    /// corrupt headers while allowing large all-null pages.
    static let minPageValueLimit = 1 << 17

    func decode(chunk: [UInt8], numRows: Int) throws -> ParquetValues {
        guard leaf.maxRepetitionLevel == 0 else {
            throw DecodeError.unsupported("repeated (list/map) columns are not supported")
        }
        guard leaf.maxDefinitionLevel <= 255 else { throw DecodeError.unsupported("nesting deeper than 255 levels") }
        if kind == .unsupported { throw DecodeError.unsupported("\(leaf.physicalType) columns are not supported") }
        var acc = ValueAccumulator(kind: kind, reserve: min(numRows, 1 << 20))
        var dictionary: DenseValues?
        var pos = 0
        var rows = 0
        while rows < numRows {
            guard pos < chunk.count else {
                throw DecodeError.truncated("column chunk ends after \(rows) of \(numRows) rows")
            }
            var td = ThriftCompactDecoder(bytes: chunk, start: pos)
            let header = try PageHeader.parse(&td)
            let dataStart = td.position
            let csize = Int(header.compressedSize)
            let usize = Int(header.uncompressedSize)
            guard csize <= chunk.count - dataStart else {
                throw DecodeError.truncated("page of \(csize) bytes extends past the column chunk")
            }
            pos = dataStart + csize
            switch header.type {
            case PageHeader.PageType.dictionaryPage.rawValue:
                guard let dp = header.dictionaryPage else { throw DecodeError.metadata("dictionary page without its header") }
                guard dp.encoding == ParquetEncoding.plain || dp.encoding == ParquetEncoding.plainDictionary else {
                    throw DecodeError.unsupported("dictionary page encoding \(ParquetEncoding.name(dp.encoding))")
                }
                let n = Int(dp.numValues)
                guard n >= 0 else { throw DecodeError.metadata("negative dictionary size") }
                dictionary = try withPage(chunk, dataStart, csize, usize, compressed: true) { buf in
                    try PlainDecoder.decode(buf, count: n, leaf: leaf, kind: kind)
                }
            case PageHeader.PageType.dataPage.rawValue:
                guard let dp = header.dataPage else { throw DecodeError.metadata("data page without its header") }
                let n = try checkedCount(Int(dp.numValues), rows: rows, numRows: numRows, usize: usize)
                let maxDef = leaf.maxDefinitionLevel
                let (dense, defs) = try withPage(chunk, dataStart, csize, usize, compressed: true) { buf -> (DenseValues, [UInt8]?) in
                    var p = 0
                    var defs: [UInt8]?
                    if maxDef > 0 {
                        guard dp.definitionLevelEncoding == ParquetEncoding.rle else {
                            throw DecodeError.unsupported("definition level encoding \(ParquetEncoding.name(dp.definitionLevelEncoding))")
                        }
                        guard buf.count >= 4 else { throw DecodeError.truncated("definition levels truncated") }
                        let len = Int(buf.loadUnaligned(as: UInt32.self).littleEndian)
                        guard len <= buf.count - 4 else { throw DecodeError.truncated("definition levels of \(len) bytes exceed the page") }
                        defs = try decodeLevels(rebased(buf, 4, len), count: n, maxLevel: maxDef)
                        p = 4 + len
                    }
                    let nonNull = defs.map { d in d.reduce(0) { $0 + ($1 == UInt8(maxDef) ? 1 : 0) } } ?? n
                    let dense = try decodeValues(rebased(buf, p, buf.count - p), encoding: dp.encoding, count: nonNull, dictionary: dictionary)
                    return (dense, defs)
                }
                try acc.append(dense, defs: defs, maxDef: maxDef)
                rows += n
            case PageHeader.PageType.dataPageV2.rawValue:
                guard let dp = header.dataPageV2 else { throw DecodeError.metadata("data page v2 without its header") }
                let n = try checkedCount(Int(dp.numValues), rows: rows, numRows: numRows, usize: usize)
                let repLen = Int(dp.repetitionLevelsByteLength), defLen = Int(dp.definitionLevelsByteLength)
                guard repLen >= 0, defLen >= 0, repLen + defLen <= csize, repLen + defLen <= usize else {
                    throw DecodeError.metadata("data page v2 level lengths invalid")
                }
                let maxDef = leaf.maxDefinitionLevel
                var defs: [UInt8]?
                if maxDef > 0 {
                    defs = try chunk.withUnsafeBytes { all in
                        try decodeLevels(rebased(all, dataStart + repLen, defLen), count: n, maxLevel: maxDef)
                    }
                }
                let nonNull = defs.map { d in d.reduce(0) { $0 + ($1 == UInt8(maxDef) ? 1 : 0) } } ?? n
                let valuesStart = dataStart + repLen + defLen
                let dense = try withPage(chunk, valuesStart, csize - repLen - defLen, usize - repLen - defLen,
                                         compressed: dp.isCompressed) { buf in
                    try decodeValues(buf, encoding: dp.encoding, count: nonNull, dictionary: dictionary)
                }
                try acc.append(dense, defs: defs, maxDef: maxDef)
                rows += n
            default:
                continue   // index pages and unknown page types are skipped
            }
        }
        return acc.values
    }

    private func checkedCount(_ n: Int, rows: Int, numRows: Int, usize: Int) throws -> Int {
        guard n >= 0 else { throw DecodeError.metadata("negative page value count") }
        guard n <= numRows - rows else {
            throw DecodeError.corrupt("page holds \(n) values but only \(numRows - rows) rows remain in the row group")
        }
        guard n <= max(Self.minPageValueLimit, usize.multipliedReportingOverflow(by: 8).partialValue) else {
            throw DecodeError.corrupt("page claims \(n) values in \(usize) bytes")
        }
        return n
    }

    /// Runs `body` over the (decompressed) bytes of a page.
    private func withPage<R>(_ chunk: [UInt8], _ start: Int, _ csize: Int, _ usize: Int, compressed: Bool,
                             _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        if codec == ParquetCodec.uncompressed || !compressed {
            return try chunk.withUnsafeBytes { all in
                let page = rebased(all, start, csize)
                if codec == ParquetCodec.uncompressed && csize != usize {
                    throw DecodeError.corrupt("uncompressed page has \(csize) bytes, header says \(usize)")
                }
                return try body(page)
            }
        }
        let data = try chunk.withUnsafeBytes { all in
            try Decompressor.decompress(codec: codec, input: rebased(all, start, csize), expectedSize: usize)
        }
        return try data.withUnsafeBytes(body)
    }

    private func decodeValues(_ buf: UnsafeRawBufferPointer, encoding: Int32, count: Int, dictionary: DenseValues?) throws -> DenseValues {
        switch encoding {
        case ParquetEncoding.plain:
            return try PlainDecoder.decode(buf, count: count, leaf: leaf, kind: kind)
        case ParquetEncoding.plainDictionary, ParquetEncoding.rleDictionary:
            guard let dictionary else { throw DecodeError.corrupt("dictionary-encoded page without a dictionary page") }
            if count == 0 { return try dictionary.gather([]) }
            guard buf.count >= 1 else { throw DecodeError.truncated("dictionary indices truncated") }
            let width = Int(buf[0])
            var indices = [UInt32](repeating: 0, count: count)
            var decoder = try RLEHybridDecoder(rebased(buf, 1, buf.count - 1), bitWidth: width)
            try indices.withUnsafeMutableBufferPointer { try decoder.decode(into: $0) }
            return try dictionary.gather(indices)
        case ParquetEncoding.rle:
            guard leaf.physicalType == .boolean else {
                throw DecodeError.unsupported("RLE value encoding for \(leaf.physicalType)")
            }
            guard buf.count >= 4 else { throw DecodeError.truncated("RLE booleans truncated") }
            let len = Int(buf.loadUnaligned(as: UInt32.self).littleEndian)
            guard len <= buf.count - 4 else { throw DecodeError.truncated("RLE booleans truncated") }
            var bits = [UInt8](repeating: 0, count: count)
            var decoder = try RLEHybridDecoder(rebased(buf, 4, len), bitWidth: 1)
            try bits.withUnsafeMutableBufferPointer { try decoder.decode(into: $0) }
            return .bool(bits.map { $0 != 0 })
        case ParquetEncoding.deltaBinaryPacked:
            let (v, _) = try DeltaDecoders.binaryPacked(buf, start: 0, expected: count)
            switch leaf.physicalType {
            case .int32:
                if kind == .uint32 { return .int64(v.map { Int64(UInt32(truncatingIfNeeded: $0)) }) }
                return .int64(v.map { Int64(Int32(truncatingIfNeeded: $0)) })
            case .int64: return .int64(v)
            default: throw DecodeError.unsupported("DELTA_BINARY_PACKED for \(leaf.physicalType)")
            }
        case ParquetEncoding.deltaLengthByteArray:
            guard leaf.physicalType == .byteArray else { throw DecodeError.unsupported("DELTA_LENGTH_BYTE_ARRAY for \(leaf.physicalType)") }
            return try DeltaDecoders.lengthByteArray(buf, count: count, kind: kind)
        case ParquetEncoding.deltaByteArray:
            guard leaf.physicalType == .byteArray || leaf.physicalType == .fixedLenByteArray else {
                throw DecodeError.unsupported("DELTA_BYTE_ARRAY for \(leaf.physicalType)")
            }
            return try DeltaDecoders.byteArray(buf, count: count, kind: kind)
        case ParquetEncoding.byteStreamSplit:
            return try DeltaDecoders.byteStreamSplit(buf, count: count, leaf: leaf, kind: kind)
        default:
            throw DecodeError.unsupported("value encoding \(ParquetEncoding.name(encoding)) is not supported")
        }
    }
}
