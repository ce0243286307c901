import Foundation

/// Writes a GeoParquet 1.1 file: the given columns (optional), a WKB `geometry` column and a
/// `bbox` covering struct {xmin, ymin, xmax, ymax} declared in the `geo` metadata, rows in
/// Hilbert order of their boxes (`HilbertOrder`), `rowGroupSize` rows per row group, each column
/// chunk one zstd-compressed PLAIN data page (v1), the bbox columns with min/max statistics so
/// readers can skip row groups. No timestamps: the same rows give the same bytes.
public enum GeoParquetWriter {
    public static let defaultRowGroupSize = 65_536

    /// `geometry`: a `.binary` buffer of ISO WKB (a null where a row has no geometry), as long as every column.
    public static func write(path: String, columns: [ParquetColumnBuffer], geometry: ParquetColumnBuffer,
                             rowGroupSize: Int = defaultRowGroupSize) throws {
        let rows = geometry.count
        precondition(columns.allSatisfy { $0.count == rows }, "every column holds every row")
        let boxes: [BoundingBox?] = (0..<rows).map { geometry.isNull[$0] ? nil : WKBGeometry.envelope(of: Array(geometry.slice($0))) }
        let order = HilbertOrder.permutation(boxes)

        var file: [UInt8] = Array("PAR1".utf8)
        var groups: [RowGroupRecord] = []
        var start = 0
        while start < rows || (rows == 0 && groups.isEmpty) {
            let picked = Array(order[start..<min(start + rowGroupSize, rows)])
            groups.append(try writeRowGroup(picked, columns: columns, geometry: geometry, boxes: boxes, into: &file))
            start += rowGroupSize
            if rows == 0 { break }
        }
        let footer = fileMetaData(columns: columns, rows: rows, groups: groups,
                                  geo: geoMetadata(boxes: boxes, geometry: geometry))
        file.append(contentsOf: footer)
        let n = UInt32(footer.count)
        file.append(contentsOf: [UInt8(n & 0xff), UInt8(n >> 8 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 24)])
        file.append(contentsOf: Array("PAR1".utf8))
        guard FileManager.default.createFile(atPath: path, contents: Data(file)) else {
            throw GeoParquetWriteError("cannot write \(path)")
        }
    }

    /// A column chunk as the footer records it.
    struct ChunkRecord {
        let path: [String]
        let type: Int32
        let offset: Int
        let compressedSize: Int
        let uncompressedSize: Int
        let values: Int
        /// min and max (bbox columns), as PLAIN bytes.
        var minMax: ([UInt8], [UInt8])?
        var nullCount: Int
    }

    struct RowGroupRecord {
        let chunks: [ChunkRecord]
        let rows: Int
    }

    private static func writeRowGroup(_ picked: [Int], columns: [ParquetColumnBuffer], geometry: ParquetColumnBuffer,
                                      boxes: [BoundingBox?], into file: inout [UInt8]) throws -> RowGroupRecord {
        var chunks: [ChunkRecord] = []
        func add(_ path: [String], _ type: Int32, values: [UInt8], defined: [Bool], minMax: ([UInt8], [UInt8])? = nil) throws {
            let page = try ParquetPageEncoder.page(values: values, definedRows: defined)
            chunks.append(ChunkRecord(path: path, type: type, offset: file.count, compressedSize: page.bytes.count,
                                      uncompressedSize: page.uncompressedSize, values: picked.count, minMax: minMax,
                                      nullCount: defined.lazy.filter { !$0 }.count))
            file.append(contentsOf: page.bytes)
        }
        for c in columns + [geometry] {
            try add([c.name], physicalType(c.kind), values: plainValues(c, picked), defined: picked.map { !c.isNull[$0] })
        }
        let defined = picked.map { boxes[$0] != nil }
        let parts: [(String, KeyPath<BoundingBox, Double>)] = [("xmin", \.xmin), ("ymin", \.ymin), ("xmax", \.xmax), ("ymax", \.ymax)]
        for (name, key) in parts {
            var values: [UInt8] = []
            var lo = Double.infinity, hi = -Double.infinity
            for case let b? in picked.map({ boxes[$0] }) {
                let v = b[keyPath: key]
                appendLE(v.bitPattern, to: &values)
                lo = min(lo, v)
                hi = max(hi, v)
            }
            var loBytes: [UInt8] = [], hiBytes: [UInt8] = []
            appendLE(lo.bitPattern, to: &loBytes)
            appendLE(hi.bitPattern, to: &hiBytes)
            try add(["bbox", name], 5, values: values, defined: defined, minMax: lo <= hi ? (loBytes, hiBytes) : nil)
        }
        return RowGroupRecord(chunks: chunks, rows: picked.count)
    }

    static func physicalType(_ kind: ParquetColumnBuffer.Kind) -> Int32 {
        switch kind {
        case .boolean: 0
        case .int64: 2
        case .double: 5
        case .text, .binary: 6
        }
    }

    /// The non-null values of `rows`, PLAIN-encoded.
    static func plainValues(_ c: ParquetColumnBuffer, _ rows: [Int]) -> [UInt8] {
        var out: [UInt8] = []
        var bits: UInt8 = 0, nbits = 0
        for r in rows where !c.isNull[r] {
            switch c.kind {
            case .text, .binary:
                let s = c.slice(r)
                appendLE(UInt32(s.count), to: &out)
                out.append(contentsOf: s)
            case .int64: appendLE(UInt64(bitPattern: c.ints[r]), to: &out)
            case .double: appendLE(c.doubles[r].bitPattern, to: &out)
            case .boolean:
                // Bit-packed, least significant bit first.
                if c.ints[r] != 0 { bits |= 1 << nbits }
                nbits += 1
                if nbits == 8 { out.append(bits); bits = 0; nbits = 0 }
            }
        }
        if nbits > 0 { out.append(bits) }
        return out
    }

    static func appendLE<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    /// GeoParquet 1.1's `geo` metadata, its keys in a fixed order.
    static func geoMetadata(boxes: [BoundingBox?], geometry: ParquetColumnBuffer) -> String {
        var types = Set<UInt32>()
        for r in 0..<geometry.count where !geometry.isNull[r] {
            let s = geometry.slice(r)
            guard s.count >= 5 else { continue }
            let b = Array(s.prefix(5))
            let code = b[0] == 1 ? UInt32(b[1]) | UInt32(b[2]) << 8 | UInt32(b[3]) << 16 | UInt32(b[4]) << 24
                                 : UInt32(b[4]) | UInt32(b[3]) << 8 | UInt32(b[2]) << 16 | UInt32(b[1]) << 24
            types.insert(code)
        }
        let names = [1: "Point", 2: "LineString", 3: "Polygon", 4: "MultiPoint", 5: "MultiLineString", 6: "MultiPolygon", 7: "GeometryCollection"]
        let typeList = types.sorted().compactMap { names[Int($0)] }.map { "\"\($0)\"" }.joined(separator: ",")
        var all: BoundingBox?
        for case let b? in boxes {
            all = all.map { BoundingBox(xmin: min($0.xmin, b.xmin), ymin: min($0.ymin, b.ymin), xmax: max($0.xmax, b.xmax), ymax: max($0.ymax, b.ymax)) } ?? b
        }
        let bbox = all.map { ",\"bbox\":[\($0.xmin),\($0.ymin),\($0.xmax),\($0.ymax)]" } ?? ""
        let covering = "\"covering\":{\"bbox\":{\"xmin\":[\"bbox\",\"xmin\"],\"ymin\":[\"bbox\",\"ymin\"],\"xmax\":[\"bbox\",\"xmax\"],\"ymax\":[\"bbox\",\"ymax\"]}}"
        return "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":{\"encoding\":\"WKB\",\"geometry_types\":[\(typeList)]\(bbox),\(covering)}}}"
    }

    static func fileMetaData(columns: [ParquetColumnBuffer], rows: Int, groups: [RowGroupRecord], geo: String) -> [UInt8] {
        var e = ThriftCompactEncoder()
        e.structValue { m in
            m.i32(1, 1)
            m.list(2, ThriftCompactDecoder.WireType.structure, count: columns.count + 3 + 4) { l in
                l.structValue { s in s.string(4, "schema"); s.i32(5, Int32(columns.count + 2)) }
                for c in columns + [ParquetColumnBuffer(name: "geometry", kind: .binary)] {
                    l.structValue { s in
                        s.i32(1, physicalType(c.kind))
                        s.i32(3, 1)  // OPTIONAL
                        s.string(4, c.name)
                        if c.kind == .text {
                            s.i32(6, 0)  // UTF8
                            s.structure(10) { t in t.structure(1) { _ in } }  // LogicalType STRING
                        }
                    }
                }
                l.structValue { s in s.i32(3, 1); s.string(4, "bbox"); s.i32(5, 4) }
                for name in ["xmin", "ymin", "xmax", "ymax"] {
                    l.structValue { s in s.i32(1, 5); s.i32(3, 0); s.string(4, name) }  // DOUBLE, REQUIRED
                }
            }
            m.i64(3, Int64(rows))
            m.list(4, ThriftCompactDecoder.WireType.structure, count: groups.count) { l in
                for g in groups {
                    l.structValue { rg in
                        rg.list(1, ThriftCompactDecoder.WireType.structure, count: g.chunks.count) { cl in
                            for c in g.chunks { cl.structValue { chunk in columnChunk(c, &chunk) } }
                        }
                        rg.i64(2, Int64(g.chunks.reduce(0) { $0 + $1.uncompressedSize }))
                        rg.i64(3, Int64(g.rows))
                        rg.i64(5, Int64(g.chunks.first?.offset ?? 4))
                        rg.i64(6, Int64(g.chunks.reduce(0) { $0 + $1.compressedSize }))
                    }
                }
            }
            m.list(5, ThriftCompactDecoder.WireType.structure, count: 1) { l in
                l.structValue { kv in kv.string(1, "geo"); kv.string(2, geo) }
            }
            m.string(6, "flyr-link")
            // Every leaf in its type's order (readers ignore min_value/max_value without it).
            m.list(7, ThriftCompactDecoder.WireType.structure, count: columns.count + 1 + 4) { l in
                for _ in 0..<(columns.count + 1 + 4) { l.structValue { o in o.structure(1) { _ in } } }  // TypeDefinedOrder
            }
        }
        return e.bytes
    }

    private static func columnChunk(_ c: ChunkRecord, _ e: inout ThriftCompactEncoder) {
        e.i64(2, Int64(c.offset))
        e.structure(3) { m in
            m.i32(1, c.type)
            m.list(2, ThriftCompactDecoder.WireType.i32, count: 2) { l in l.zigZag(0); l.zigZag(3) }  // PLAIN, RLE
            m.list(3, ThriftCompactDecoder.WireType.binary, count: c.path.count) { l in
                for p in c.path { l.binaryValue(Array(p.utf8)) }
            }
            m.i32(4, 6)  // ZSTD
            m.i64(5, Int64(c.values))
            m.i64(6, Int64(c.uncompressedSize))
            m.i64(7, Int64(c.compressedSize))
            m.i64(9, Int64(c.offset))
            m.structure(12) { s in
                s.i64(3, Int64(c.nullCount))
                if let (lo, hi) = c.minMax {
                    s.binary(5, hi)
                    s.binary(6, lo)
                }
            }
        }
    }
}
