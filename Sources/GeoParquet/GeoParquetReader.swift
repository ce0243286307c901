/// Streaming, column-selective, spatially pruned reading.
extension GeoParquetFile {
    /// Reads row groups one at a time and calls `handler` with one batch per row group read.
    ///
    /// - Parameters:
    ///   - columns: dotted column paths to return in `values` (a struct name selects all its leaves).
    ///   - geometryColumn: geometry column to return as WKB; nil = the primary geometry column
    ///     (no geometry if the file has none). Only WKB-encoded columns can be read.
    ///   - includeGeometry: set to false to skip geometries entirely.
    ///   - bbox: if given, row groups whose bbox (covering-column statistics, or GEOMETRY
    ///     geospatial statistics) does not intersect it are skipped, and rows whose covering bbox (or
    ///     WKB envelope when there is no covering) does not intersect it are dropped.
    /// - Returns: counters for this call.
    /// - Throws: `GeoParquetError` for file problems; errors thrown by `handler` are rethrown as is.
    @discardableResult
    public func read(columns requested: [String] = [], geometryColumn: String? = nil, includeGeometry: Bool = true,
                     bbox: BoundingBox? = nil, rowGroups: [Int]? = nil,
                     rowGroup handler: (GeoParquetBatch) throws -> Void) throws -> ReadStats {
        if let rg = rowGroups, let bad = rg.first(where: { $0 < 0 || $0 >= metadata.rowGroups.count }) {
            throw GeoParquetError(kind: .invalidArgument, file: path, message: "row group \(bad) does not exist (file has \(metadata.rowGroups.count))")
        }
        let selectedGroups = rowGroups.map(Set.init)
        // Resolve requested attribute columns.
        var attributes: [LeafColumn] = []
        for name in requested {
            if let l = leaf(name) {
                attributes.append(l)
            } else if schema.groupPaths.contains(name) {
                attributes.append(contentsOf: schema.leaves.filter { $0.dottedPath.hasPrefix(name + ".") })
            } else {
                throw GeoParquetError(kind: .columnNotFound, file: path, column: name, message: "no such column")
            }
        }
        for l in attributes where !l.description.isReadable {
            throw GeoParquetError(kind: .unsupported, file: path, column: l.dottedPath,
                                  message: l.maxRepetitionLevel > 0 ? "list/map (repeated) columns are not supported"
                                                                    : "\(l.physicalType) columns are not supported")
        }

        // Resolve the geometry column.
        var geomLeaf: LeafColumn?
        var geomInfo: GeoColumnInfo?
        if includeGeometry, let name = geometryColumn ?? primaryGeometryColumn {
            geomInfo = self.geometryColumn(named: name)
            if let info = geomInfo, info.encoding != .wkb {
                let enc: String
                switch info.encoding {
                case let .native(s): enc = "GeoArrow native encoding \"\(s)\""
                case let .other(s): enc = "encoding \"\(s)\""
                case .wkb: enc = "WKB"
                }
                throw GeoParquetError(kind: .unsupported, file: path, column: name,
                                      message: "geometry \(enc) is not supported; only WKB can be read")
            }
            guard let l = leaf(name) else {
                throw GeoParquetError(kind: .columnNotFound, file: path, column: name, message: "geometry column not found")
            }
            guard l.physicalType == .byteArray, l.maxRepetitionLevel == 0 else {
                throw GeoParquetError(kind: .unsupported, file: path, column: name,
                                      message: "geometry column is \(l.physicalType), expected a WKB BYTE_ARRAY")
            }
            geomLeaf = l
        } else if let name = geometryColumn {
            geomInfo = self.geometryColumn(named: name)
        } else if let name = primaryGeometryColumn {
            geomInfo = self.geometryColumn(named: name)
        }

        // Covering columns for spatial filtering.
        var coverLeaves: [LeafColumn]?
        if bbox != nil, let c = geomInfo?.covering {
            let ls = [c.xmin, c.ymin, c.xmax, c.ymax].compactMap { leaf($0) }
            if ls.count == 4, ls.allSatisfy({ $0.maxRepetitionLevel == 0 }) { coverLeaves = ls }
        }

        let reader: RangeReader
        do { reader = try RangeReader(source) } catch { throw GeoParquetError.from(error, file: path, column: nil) }
        var stats = ReadStats(rowGroupsTotal: selectedGroups?.count ?? metadata.rowGroups.count, rowGroupsRead: 0, bytesRead: 0, rowsReturned: 0)
        var firstRow = 0
        for (rgIndex, rg) in metadata.rowGroups.enumerated() {
            let rows = Int(rg.numRows)
            defer { firstRow += rows }
            if let sel = selectedGroups, !sel.contains(rgIndex) { continue }
            if let q = bbox, let rb = rowGroupBBox(rg, covering: coverLeaves, geometry: geomLeaf), !rb.intersects(q) {
                continue
            }
            stats.rowGroupsRead += 1
            // Every chunk this row group will decode, named up front: a remote source fetches them
            // together (a chunk whose range is invalid is left to decodeChunk, which says why).
            var needed = attributes + (geomLeaf.map { [$0] } ?? [])
            if bbox != nil { needed += coverLeaves ?? [] }
            let ranges = Set(needed.compactMap { chunkRange(rg, leaf: $0) }).sorted { $0.lowerBound < $1.lowerBound }
            do { try reader.prepare(ranges) } catch { throw GeoParquetError.from(error, file: path, column: nil) }
            var decoded: [Int: ParquetValues] = [:]
            func column(_ l: LeafColumn, _ kind: OutputKind) throws(GeoParquetError) -> ParquetValues {
                if let v = decoded[l.index] { return v }
                let v = try decodeChunk(rg, leaf: l, kind: kind, rows: rows, reader: reader)
                decoded[l.index] = v
                return v
            }
            var geometries: [[UInt8]?] = []
            if let g = geomLeaf {
                geometries = try column(g, .binary).binaryValues ?? []
            }
            var values: [String: ParquetValues] = [:]
            for l in attributes where geomLeaf?.index != l.index || l.outputKind == .binary {
                values[l.dottedPath] = try column(l, l.outputKind)
            }
            if let g = geomLeaf, attributes.contains(where: { $0.index == g.index }) {
                values[g.dottedPath] = .binary(geometries)
            }

            // Row filter.
            var keep: [Bool]?
            if let q = bbox {
                if let cl = coverLeaves {
                    let c = try cl.map { l throws(GeoParquetError) in try column(l, l.outputKind) }
                    var k = [Bool](repeating: false, count: rows)
                    for i in 0..<min(rows, c.map(\.count).min() ?? 0) {
                        if let x0 = c[0].doubleValue(at: i), let y0 = c[1].doubleValue(at: i),
                           let x1 = c[2].doubleValue(at: i), let y1 = c[3].doubleValue(at: i) {
                            k[i] = x0 <= q.xmax && x1 >= q.xmin && y0 <= q.ymax && y1 >= q.ymin
                        }
                    }
                    keep = k
                } else if geomLeaf != nil {
                    keep = geometries.map { wkb in wkb.flatMap { WKBGeometry.envelope(of: $0) }?.intersects(q) ?? false }
                }
            }
            var batch = GeoParquetBatch(rowCount: rows, firstRowIndex: firstRow, rowGroupIndex: rgIndex, rowIndices: nil,
                                        geometryWKB: geometries, values: values)
            if let keep, keep.contains(false) {
                batch.geometryWKB = ParquetValues.binary(geometries).filtered(keep).binaryValues ?? []
                batch.values = values.mapValues { $0.filtered(keep) }
                var idx: [Int] = []
                for i in 0..<keep.count where keep[i] { idx.append(firstRow + i) }
                batch.rowIndices = idx
                batch.rowCount = idx.count
            }
            stats.bytesRead = reader.bytesRead
            stats.rowsReturned += batch.rowCount
            try handler(batch)
        }
        stats.bytesRead = reader.bytesRead
        return stats
    }

    /// Reads everything into memory (convenience for small files and tests).
    public func readAll(columns: [String] = [], geometryColumn: String? = nil, includeGeometry: Bool = true,
                        bbox: BoundingBox? = nil) throws -> (batches: [GeoParquetBatch], stats: ReadStats) {
        var batches: [GeoParquetBatch] = []
        let stats = try read(columns: columns, geometryColumn: geometryColumn, includeGeometry: includeGeometry, bbox: bbox) {
            batches.append($0)
        }
        return (batches, stats)
    }

    /// Bbox of a row group for a geometry column, from covering-column statistics or GEOMETRY
    /// geospatial statistics; nil when unknown.
    public func rowGroupBoundingBox(_ index: Int, geometryColumn: String? = nil) -> BoundingBox? {
        guard index >= 0, index < metadata.rowGroups.count else { return nil }
        guard let name = geometryColumn ?? primaryGeometryColumn else { return nil }
        let info = self.geometryColumn(named: name)
        var cover: [LeafColumn]?
        if let c = info?.covering {
            let ls = [c.xmin, c.ymin, c.xmax, c.ymax].compactMap { leaf($0) }
            if ls.count == 4 { cover = ls }
        }
        return rowGroupBBox(metadata.rowGroups[index], covering: cover, geometry: leaf(name))
    }

    func rowGroupBBox(_ rg: RowGroup, covering: [LeafColumn]?, geometry: LeafColumn?) -> BoundingBox? {
        if let c = covering, c.count == 4 {
            func stat(_ l: LeafColumn, max: Bool) -> Double? {
                guard l.index < rg.columns.count, let s = rg.columns[l.index].metaData?.statistics,
                      let b = max ? s.effectiveMax : s.effectiveMin else { return nil }
                var v: Double?
                if l.physicalType == .float, b.count == 4 {
                    v = Double(Float(bitPattern: UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24))
                } else if l.physicalType == .double, b.count == 8 {
                    var bits: UInt64 = 0
                    for i in 0..<8 { bits |= UInt64(b[i]) << UInt64(8 * i) }
                    v = Double(bitPattern: bits)
                }
                guard let d = v, !d.isNaN else { return nil }
                return d
            }
            if let x0 = stat(c[0], max: false), let y0 = stat(c[1], max: false),
               let x1 = stat(c[2], max: true), let y1 = stat(c[3], max: true) {
                return BoundingBox(xmin: x0, ymin: y0, xmax: x1, ymax: y1)
            }
        }
        if let g = geometry, g.index < rg.columns.count, let b = rg.columns[g.index].metaData?.geospatialStatistics?.bbox,
           b.xmin <= b.xmax, b.ymin <= b.ymax {
            return b
        }
        return nil
    }

    /// The byte range of a leaf's column chunk in a row group (from the dictionary page, when there
    /// is one, to the end of its data), or nil when the metadata gives none inside the file's data area.
    func chunkRange(_ rg: RowGroup, leaf: LeafColumn) -> Range<Int>? {
        guard leaf.index < rg.columns.count, let md = rg.columns[leaf.index].metaData else { return nil }
        var start = md.dataPageOffset
        if let d = md.dictionaryPageOffset, d > 0, d < start { start = d }
        let length = md.totalCompressedSize
        guard start >= 4, length > 0, length <= Int64(fileSize), start <= Int64(fileSize) - 8 - length else { return nil }
        return Int(start)..<Int(start + length)
    }

    private func decodeChunk(_ rg: RowGroup, leaf: LeafColumn, kind: OutputKind, rows: Int,
                             reader: RangeReader) throws(GeoParquetError) -> ParquetValues {
        do {
            guard leaf.index < rg.columns.count else { throw DecodeError.metadata("row group lacks this column") }
            let chunk = rg.columns[leaf.index]
            guard let md = chunk.metaData else {
                throw DecodeError.unsupported("column chunk without metadata (encrypted file?)")
            }
            if let fp = chunk.filePath, !fp.isEmpty {
                throw DecodeError.unsupported("column chunk stored in external file \(fp)")
            }
            guard ParquetPhysicalType(thrift: md.type) == leaf.physicalType else {
                throw DecodeError.metadata("column chunk type \(md.type) does not match the schema")
            }
            // An empty row group's chunk may hold no data page (Arrow then writes data_page_offset
            // 0): there is nothing to read.
            if rows == 0 { return try ColumnChunkDecoder(leaf: leaf, kind: kind, codec: md.codec).decode(chunk: [], numRows: 0) }
            guard let range = chunkRange(rg, leaf: leaf) else {
                var start = md.dataPageOffset
                if let d = md.dictionaryPageOffset, d > 0, d < start { start = d }
                throw DecodeError.truncated("column chunk range \(start)+\(md.totalCompressedSize) lies outside the data area of the \(fileSize)-byte file")
            }
            let bytes = try reader.read(offset: range.lowerBound, count: range.count)
            return try ColumnChunkDecoder(leaf: leaf, kind: kind, codec: md.codec).decode(chunk: bytes, numRows: rows)
        } catch {
            throw GeoParquetError.from(error, file: path, column: leaf.dottedPath)
        }
    }
}
