/// A row that can be compressed: its packed record (`PackedFields`) and a few fixed-width values.
package protocol CompressibleRow {
    /// Bytes of the fixed-width part.
    static var fixedWidth: Int { get }
    /// The fixed-width part written at `fixed` (not aligned), the record's bytes appended to
    /// `records` (a 0 byte when it has none). Reads the row in place (no reference counted).
    func pack(fixed: UnsafeMutableRawPointer, records: inout [UInt8])
    /// The row again, from its record and its fixed-width part (not aligned).
    init(packedFields: PackedFields, fixed: UnsafeRawPointer)
}

/// A layer's rows, zstd-compressed in memory from the read until the stages that read them, since
/// the geometry stages between read only footprints and points (held, the rows were a third of their peak).
/// Chunks of `chunkRows` in read order (fixed parts, then records; 0 for none), read back in `order`.
package final class CompressedRows<Row: CompressibleRow>: @unchecked Sendable {
    /// How many rows were compressed.
    let compressedCount: Int
    private let chunks: [ZstdChunk]
    /// The compressed row at each position the rows are read back at (nil: all, as compressed).
    private(set) var order: [Int32]?

    static var chunkRows: Int { 65_536 }

    /// How many rows are read back.
    package var count: Int { order?.count ?? compressedCount }

    private init(count: Int, chunks: [ZstdChunk]) {
        compressedCount = count
        self.chunks = chunks
    }

    /// `rows`, compressed on the workers.
    package convenience init(compressing rows: [Row], pool: WorkerPool) {
        let n = (rows.count + Self.chunkRows - 1) / Self.chunkRows
        let chunks = rows.withUnsafeBufferPointer { rows in
            pool.map(n, chunkSize: 1, workerState: { [UInt8]() }) { _, raw, c in
                Self.chunk(UnsafeBufferPointer(rebasing: rows[c * Self.chunkRows..<min((c + 1) * Self.chunkRows, rows.count)]), raw: &raw)
            }
        }
        self.init(count: rows.count, chunks: chunks)
    }

    deinit {
        for chunk in chunks { chunk.free() }
    }

    /// Rows compressed as they come (a reader's batches), a chunk whenever `chunkRows` have come.
    final class Builder {
        private var chunks: [ZstdChunk] = []
        private var pending: [Row] = []
        private var raw: [UInt8] = []
        private var count = 0

        func append(_ row: consuming Row) {
            pending.append(row)
            count += 1
            if pending.count == CompressedRows.chunkRows { flush() }
        }

        private func flush() {
            guard !pending.isEmpty else { return }
            chunks.append(pending.withUnsafeBufferPointer { CompressedRows.chunk($0, raw: &raw) })
            pending.removeAll(keepingCapacity: true)
        }

        /// Everything appended (the builder is left empty).
        func finish() -> CompressedRows {
            flush()
            defer { (chunks, pending, raw, count) = ([], [], [], 0) }
            return CompressedRows(count: count, chunks: chunks)
        }

        deinit {
            for chunk in chunks { chunk.free() }
        }
    }

    /// From now on the rows are read back as `order` gives them (compressed indices, each once at most).
    func arrange(_ order: [Int32]) {
        self.order = order
    }

    /// Only the rows (positions in the current order) where `keep` is true are read back.
    package func keep(_ keep: [Bool]) {
        precondition(keep.count == count, "one flag per row")
        order = keep.indices.compactMap { keep[$0] ? position($0) : nil }
    }

    private func position(_ k: Int) -> Int32 { order.map { $0[k] } ?? Int32(k) }

    /// The rows, unpacked on the workers (each chunk's records into a slab of their own), in order.
    package func decompressed(pool: WorkerPool) -> [Row] {
        ResultSlots<Row>.collect(count) { slots in
            forEachRow(pool: pool) { k, row in slots.set(k, row) }
        }
    }

    /// `transform` of every row (its position, the row), in order, computed on the workers a chunk
    /// at a time: the rows are unpacked only a chunk at a time.
    package func map<T>(pool: WorkerPool, _ transform: (Int, Row) -> T) -> [T] {
        ResultSlots<T>.collect(count) { slots in
            forEachRow(pool: pool) { k, row in slots.set(k, transform(k, row)) }
        }
    }

    /// The rows at `positions` (in the current order), unpacking only the chunks that hold them,
    /// and of those only the rows asked for.
    func rows(at positions: [Int], pool: WorkerPool) -> [Row] {
        // The compressed indices wanted, ascending, cut into each chunk's.
        let wanted = Array(Set(positions.map { Int(position($0)) })).sorted()
        var cuts = [0]
        for k in wanted.indices.dropFirst() where wanted[k] / Self.chunkRows != wanted[k - 1] / Self.chunkRows { cuts.append(k) }
        cuts.append(wanted.count)
        let found = ResultSlots<Row>.collect(wanted.count) { slots in
            pool.forEachChunk(cuts.count - 1, workerState: { [UInt8]() }) { _, raw, w in
                let part = cuts[w]..<cuts[w + 1]
                guard let first = part.first.map({ wanted[$0] }) else { return }
                let lower = first / Self.chunkRows * Self.chunkRows
                var next = part.lowerBound
                unpack(first / Self.chunkRows, raw: &raw, wanted: { next < part.upperBound && lower + $0 == wanted[next] }) { _, row in
                    slots.set(next, row)
                    next += 1
                }
            }
        }
        let slot = Dictionary(uniqueKeysWithValues: zip(wanted, wanted.indices))
        return positions.map { found[slot[Int(position($0))]!] }
    }

    /// Every row unpacked, with its position in the current order, on the workers a chunk at a
    /// time (rows left out of the order are skipped).
    private func forEachRow(pool: WorkerPool, _ body: (Int, consuming Row) -> Void) {
        // Where each compressed row goes (-1: left out).
        let positionOf: [Int32]? = order.map { order in
            var at = [Int32](repeating: -1, count: compressedCount)
            for (k, i) in order.enumerated() { at[Int(i)] = Int32(k) }
            return at
        }
        pool.forEachChunk(chunks.count, workerState: { [UInt8]() }) { _, raw, c in
            let lower = c * Self.chunkRows
            unpack(c, raw: &raw) { k, row in
                guard let positionOf else { return body(lower + k, row) }
                let p = positionOf[lower + k]
                if p >= 0 { body(Int(p), row) }
            }
        }
    }

    /// Chunk `c`'s rows (those `wanted` by their index in the chunk), each with that index.
    private func unpack(_ c: Int, raw: inout [UInt8], wanted: (Int) -> Bool = { _ in true }, _ body: (Int, consuming Row) -> Void) {
        let chunk = chunks[c], n = min(Self.chunkRows, compressedCount - c * Self.chunkRows)
        chunk.unpack(into: &raw, what: "a compressed chunk")
        raw.withUnsafeBufferPointer { bytes in
            let records = UnsafeBufferPointer(rebasing: bytes[(n * Row.fixedWidth)...])
            let slab = FieldSlab(records)
            var at = 0
            for k in 0..<n {
                let start = at
                at += records[at] == 0 ? 1 : PackedFields.recordLength(records, at: at)
                guard wanted(k) else { continue }
                let fields = records[start] == 0 ? PackedFields(nil, at: nil) : PackedFields(slab, at: UInt32(start))
                body(k, Row(packedFields: fields, fixed: UnsafeRawPointer(bytes.baseAddress! + k * Row.fixedWidth)))
            }
        }
    }

    /// The chunk of `rows`; `raw`: a buffer to reuse.
    private static func chunk(_ rows: UnsafeBufferPointer<Row>, raw: inout [UInt8]) -> ZstdChunk {
        raw.removeAll(keepingCapacity: true)
        raw.append(contentsOf: repeatElement(0, count: rows.count * Row.fixedWidth))
        var records: [UInt8] = []
        records.reserveCapacity(rows.count * 32)
        raw.withUnsafeMutableBytes { fixed in
            for k in rows.indices { rows[k].pack(fixed: fixed.baseAddress! + k * Row.fixedWidth, records: &records) }
        }
        raw += records
        return raw.withUnsafeBytes { ZstdChunk(compressing: $0) }
    }
}

extension CompressedRows {
    /// The rows as bytes, for a tile's pack (`TilePack`): their count, then each chunk
    /// (`ZstdChunk.append(count:_:to:)`). Only rows read back as compressed (no order).
    package func append(to bytes: inout [UInt8]) {
        precondition(order == nil, "rows compressed in their own order")
        ZstdChunk.append(count: compressedCount, chunks, to: &bytes)
    }

    /// The rows `append(to:)` wrote at `offset` (moved past them); nil when the bytes end first.
    package static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> CompressedRows? {
        ZstdChunk.read(counted: bytes, perChunk: chunkRows, at: &offset).map { CompressedRows(count: $0.count, chunks: $0.chunks) }
    }
}
