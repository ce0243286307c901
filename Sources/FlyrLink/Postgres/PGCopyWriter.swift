internal import CLateBound

/// Streams rows of `COPY … FROM STDIN` (PostgreSQL's text format: tab-separated, `\N` for NULL,
/// backslash escapes) through `PQputCopyData` in blocks of about 1 MiB. Geometries go in as hex
/// EWKB with SRID 4326, numbers with the same fixed decimals as the output files.
final class PGCopyWriter {
    private let connection: PGConnection
    private var buffer: [UInt8] = []
    private var fieldsInRow = 0
    private(set) var rows = 0
    private var failed: PostgresError?
    private static let flushAt = 1 << 20

    init(connection: PGConnection) {
        self.connection = connection
        buffer.reserveCapacity(PGCopyWriter.flushAt + 64 * 1024)
    }

    private func separator() {
        if fieldsInRow > 0 { buffer.append(0x09) }
        fieldsInRow += 1
    }

    func null() {
        separator()
        buffer += [0x5C, UInt8(ascii: "N")]
    }

    func text(_ s: String?) {
        guard let s else { return null() }
        separator()
        for b in s.utf8 {
            switch b {
            case 0x5C: buffer += [0x5C, 0x5C]
            case 0x09: buffer += [0x5C, UInt8(ascii: "t")]
            case 0x0A: buffer += [0x5C, UInt8(ascii: "n")]
            case 0x0D: buffer += [0x5C, UInt8(ascii: "r")]
            default: buffer.append(b)
            }
        }
    }

    func number(_ v: Double?, decimals: Int) {
        guard let v, v.isFinite else { return null() }
        separator()
        OutputNumber.append(v, decimals, to: &buffer)
    }

    func int(_ v: Int?) {
        guard let v else { return null() }
        separator()
        buffer += Array(String(v).utf8)
    }

    func bool(_ v: Bool) {
        separator()
        buffer.append(UInt8(ascii: v ? "t" : "f"))
    }

    /// A footprint as a MultiPolygon, SRID 4326.
    func multiPolygon(_ f: Footprint) {
        separator()
        EWKBHex.appendMultiPolygon(f, srid: 4326, to: &buffer)
    }

    func point(_ p: Point2) {
        separator()
        EWKBHex.appendPoint(p, srid: 4326, to: &buffer)
    }

    func endRow() {
        buffer.append(0x0A)
        fieldsInRow = 0
        rows += 1
        if buffer.count >= PGCopyWriter.flushAt { flush() }
    }

    private func flush() {
        guard !buffer.isEmpty, failed == nil else { return }
        let ok = buffer.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: b.count) {
                pq.PQputCopyData(connection.handle, $0, Int32(b.count))
            }
        }
        if ok != 1 { failed = PostgresError(.query, "COPY failed: \(connection.lastMessage)") }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Ends the COPY and returns the number of rows the server stored.
    @discardableResult
    func finish() throws(PostgresError) -> Int {
        flush()
        if let failed {
            _ = pq.PQputCopyEnd(connection.handle, "aborted by flyr-link")
            drainResults()
            throw failed
        }
        guard pq.PQputCopyEnd(connection.handle, nil) == 1 else {
            throw PostgresError(.query, "COPY failed: \(connection.lastMessage)")
        }
        var error: PostgresError?
        var count = rows
        while let result = pq.PQgetResult(connection.handle) {
            if pq.PQresultStatus(result) != PGRES_COMMAND_OK {
                error = error ?? connection.error(from: result)
            } else if let tuples = pq.PQcmdTuples(result), let n = Int(String(cString: tuples)) {
                count = n
            }
            pq.PQclear(result)
        }
        if let error { throw error }
        return count
    }

    private func drainResults() {
        while let result = pq.PQgetResult(connection.handle) { pq.PQclear(result) }
    }
}

/// Hex-encoded little-endian EWKB (PostGIS's text input for geometry).
enum EWKBHex {
    private static let digits = Array("0123456789ABCDEF".utf8)
    private static let sridFlag: UInt32 = 0x2000_0000

    static func appendByte(_ v: UInt8, to b: inout [UInt8]) {
        b.append(digits[Int(v >> 4)])
        b.append(digits[Int(v & 15)])
    }

    static func appendUInt32(_ v: UInt32, to b: inout [UInt8]) {
        var x = v
        for _ in 0..<4 {
            appendByte(UInt8(x & 0xFF), to: &b)
            x >>= 8
        }
    }

    static func appendDouble(_ v: Double, to b: inout [UInt8]) {
        var x = v.bitPattern
        for _ in 0..<8 {
            appendByte(UInt8(x & 0xFF), to: &b)
            x >>= 8
        }
    }

    static func appendPoint(_ p: Point2, srid: UInt32, to b: inout [UInt8]) {
        appendByte(1, to: &b)
        appendUInt32(1 | sridFlag, to: &b)
        appendUInt32(srid, to: &b)
        appendDouble(p.x, to: &b)
        appendDouble(p.y, to: &b)
    }

    static func appendMultiPolygon(_ f: Footprint, srid: UInt32, to b: inout [UInt8]) {
        appendByte(1, to: &b)
        appendUInt32(6 | sridFlag, to: &b)
        appendUInt32(srid, to: &b)
        appendUInt32(UInt32(f.polygons.count), to: &b)
        for poly in f.polygons {
            appendByte(1, to: &b)
            appendUInt32(3, to: &b)
            appendUInt32(UInt32(poly.rings.count), to: &b)
            // Turned as the GeoJSON outputs are (RFC 7946), so the RPC returns features.geojson's rings.
            for (r, ring) in poly.rings.enumerated() {
                appendUInt32(UInt32(ring.count), to: &b)
                for i in ReversibleRange(range: ring.indices, reversed: RingOrientation.needsReversal(ring, isShell: r == 0)) {
                    appendDouble(ring[i].x, to: &b)
                    appendDouble(ring[i].y, to: &b)
                }
            }
        }
    }
}
