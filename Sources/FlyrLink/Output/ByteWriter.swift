import Foundation

/// A buffered file writer: bytes are gathered in memory and written in large blocks, straight
/// from the buffer (write(2), no copy into Data). Writeback to disk is started as the file grows
/// (sync_file_range), so the fsync at `close` waits for the last blocks only, not for gigabytes
/// of outputs written since the start.
final class ByteWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let flushAt = 1 << 20
    /// Bytes written so far, and up to where writeback has been started.
    private var written = 0
    private var writebackStarted = 0
    private static let writebackStep = 16 << 20
    let path: String

    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let h = FileHandle(forWritingAtPath: path) else {
            throw OutputError("cannot create \(path)")
        }
        handle = h
        buffer.reserveCapacity(flushAt + 4096)
    }

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= flushAt { flush() }
    }

    func write(bytes: [UInt8]) {
        if bytes.count >= flushAt / 4 {
            // A large block (a formatted chunk) goes out as it is, after what is buffered.
            flush()
            bytes.withUnsafeBytes { writeOut($0) }
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushAt { flush() }
    }

    /// Appends directly into the buffer (for formatters that write bytes).
    func withBuffer(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= flushAt { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { writeOut($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// A failed write is remembered and reported by `close`, so nothing half-written is committed.
    private var failure: String?

    private func writeOut(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, var p = bytes.baseAddress else { return }
        var left = bytes.count
        let fd = handle.fileDescriptor
        while left > 0 {
            let n = Glibc.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                failure = "cannot write \(path): \(String(cString: strerror(errno)))"
                return
            }
            p += n
            left -= n
        }
        written += bytes.count
        if written - writebackStarted >= Self.writebackStep {
            _ = sync_file_range(fd, off_t(writebackStarted), off_t(written - writebackStarted), 2 /* SYNC_FILE_RANGE_WRITE */)
            writebackStarted = written
        }
    }

    func close() throws {
        flush()
        if let failure { throw OutputError(failure) }
        try handle.synchronize()
        try handle.close()
    }
}

/// Linux's sync_file_range(2) (fcntl.h, not exported by the Glibc module).
@_silgen_name("sync_file_range") private func sync_file_range(_ fd: Int32, _ offset: off_t, _ count: off_t, _ flags: UInt32) -> Int32

public struct OutputError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

enum JSONText {
    /// Appends `s` as a JSON string literal.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // The usual text needs no escape: copied in one go, not byte by byte.
        var text = s
        let copied = text.withUTF8 { u -> Bool in
            guard !u.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: u)
            return true
        }
        if copied {
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 0x0A: out += [92, UInt8(ascii: "n")]
            case 0x0D: out += [92, UInt8(ascii: "r")]
            case 0x09: out += [92, UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
