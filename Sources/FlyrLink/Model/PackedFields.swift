/// The bytes of many rows' packed fields in one allocation shared by an intake batch, held as a
/// raw block, not an array, so both workers read fields with no reference count touched.
final class FieldSlab: @unchecked Sendable {
    private let base: UnsafeMutableBufferPointer<UInt8>

    /// A copy of `source`.
    init(_ source: UnsafeBufferPointer<UInt8>) {
        base = .allocate(capacity: source.count)
        _ = base.initialize(fromContentsOf: source)
    }

    deinit { base.deallocate() }

    /// The bytes, read in place; valid while the slab lives.
    @inline(__always)
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(base) }
}

/// Optional strings packed into bytes: the count of values stored as a LEB128 varint, then for
/// each value its UTF-8 length plus one as a varint (0: nil), then its bytes. Trailing nils are
/// left out, so a row without values refers to no slab. The record is self-delimiting, so a
/// row keeps only its slab and where its record starts.
package struct PackedFields: Sendable, Hashable {
    private let slab: FieldSlab?
    private let start: UInt32

    /// A row's own record, in a slab of its own (rows read in batches share one: `Builder`).
    init(_ values: [String?]) {
        var builder = Builder()
        let start = builder.append(values)
        self.init(start.map { _ in builder.finish() }, at: start)
    }

    /// The record at `start` of `slab`; no values when `start` is nil (`Builder.append`'s answer
    /// for a row without values).
    init(_ slab: FieldSlab?, at start: UInt32?) {
        self.slab = start == nil ? nil : slab
        self.start = start ?? 0
    }

    /// Records appended to one byte buffer, made into a slab when a batch is done. The buffer keeps
    /// its capacity from batch to batch; each slab is an exact copy.
    struct Builder {
        private var bytes: [UInt8] = []

        /// Appends a record; its start in the coming slab, nil for a row without values (no record).
        mutating func append(_ values: [String?]) -> UInt32? {
            let stored = (values.lastIndex { $0 != nil } ?? -1) + 1
            guard stored > 0 else { return nil }
            let start = bytes.count
            precondition(start <= Int(UInt32.max), "a field slab holds at most 4 GB")
            Self.appendVarint(stored, to: &bytes)
            for v in values[0..<stored] {
                guard let v else { bytes.append(0); continue }
                Self.appendVarint(v.utf8.count + 1, to: &bytes)
                bytes += v.utf8
            }
            return UInt32(start)
        }

        /// The slab of the records appended since the last call; the buffer is emptied for the next batch.
        mutating func finish() -> FieldSlab {
            let slab = bytes.withUnsafeBufferPointer { FieldSlab($0) }
            bytes.removeAll(keepingCapacity: true)
            return slab
        }

        private static func appendVarint(_ value: Int, to out: inout [UInt8]) {
            var n = value
            while n >= 0x80 { out.append(UInt8(n & 0x7F) | 0x80); n >>= 7 }
            out.append(UInt8(n))
        }
    }

    /// Value `k` (0-based); nil beyond the last stored value.
    subscript(k: Int) -> String? {
        withUTF8(k) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// Value `k`'s UTF-8 bytes, read in place (no String made); nil beyond the last stored value.
    func withUTF8<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let slab else { return body(nil) }
        return withExtendedLifetime(slab) {
            let b = slab.bytes  // (the slab kept alive while its bytes are read)
            var at = Int(start)
            let stored = Self.varint(b, &at)
            for field in 0..<stored {
                let n = Self.varint(b, &at)
                if field == k { return body(n == 0 ? nil : UnsafeBufferPointer(rebasing: b[at..<(at + n - 1)])) }
                at += max(n - 1, 0)
            }
            return body(nil)
        }
    }

    /// Value `k`'s UTF-8 bytes, empty (not nil) when there is none: how ids are read.
    func withNonNilUTF8<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUTF8(k) { body($0 ?? UnsafeBufferPointer(start: nil, count: 0)) }
    }

    /// Values 0..<count in order, each read in place, in one pass over the record (`withUTF8` of
    /// each would walk the record from its start every time); nil beyond the last stored value.
    func forEachUTF8(_ count: Int, _ body: (Int, UnsafeBufferPointer<UInt8>?) -> Void) {
        guard let slab else {
            for k in 0..<count { body(k, nil) }
            return
        }
        withExtendedLifetime(slab) {
            let b = slab.bytes  // (the slab kept alive while its bytes are read)
            var at = Int(start)
            let stored = Self.varint(b, &at)
            for k in 0..<count {
                guard k < stored else { body(k, nil); continue }
                let n = Self.varint(b, &at)
                body(k, n == 0 ? nil : UnsafeBufferPointer(rebasing: b[at..<(at + n - 1)]))
                at += max(n - 1, 0)
            }
        }
    }

    /// The record's bytes appended to `out`, or a 0 byte when there is none (a record starts
    /// with its value count, never 0): how compressed rows keep them (`CompressedRows`).
    func appendRecord(to out: inout [UInt8]) {
        withRecord { record in
            if record.isEmpty { out.append(0) } else { out.append(contentsOf: record) }
        }
    }

    /// The record's bytes, in place (empty when it has none).
    private func withRecord<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let slab else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return withExtendedLifetime(slab) {
            let b = slab.bytes  // (the slab kept alive while its bytes are read)
            return body(UnsafeBufferPointer(rebasing: b[Int(start)..<(Int(start) + Self.recordLength(b, at: Int(start)))]))
        }
    }

    /// The length of the record that starts at `start` of `bytes` (records are self-delimiting).
    static func recordLength(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        var at = start
        let stored = varint(bytes, &at)
        for _ in 0..<stored { at += max(varint(bytes, &at) - 1, 0) }
        return at - start
    }

    @inline(__always)
    private static func varint(_ b: UnsafeBufferPointer<UInt8>, _ at: inout Int) -> Int {
        var n = 0, shift = 0
        while true {
            let byte = b[at]
            at += 1
            n |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return n }
            shift += 7
        }
    }

    // By the values, not by where they are kept.
    package static func == (a: PackedFields, b: PackedFields) -> Bool {
        a.withRecord { x in b.withRecord { y in x.elementsEqual(y) } }
    }

    package func hash(into h: inout Hasher) {
        withRecord { h.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
