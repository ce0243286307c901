import Foundation

/// A buffered writer for outputs of up to gigabytes, writing full blocks with O_DIRECT where allowed
/// (a 1M city's 1.9 GB cost 0.7–2.9 s of system time through the page cache, 0.07 s direct).
/// At `close` the aligned part goes direct and the tail through the cache: the bytes are a buffered write's.
package final class ByteWriter {
    private var fd: Int32
    /// Writing straight to the disk; false where the file system refuses O_DIRECT.
    private var direct: Bool
    /// The staging block: aligned and sized for O_DIRECT (offsets, lengths and memory in
    /// multiples of the device's block; 4096 covers every common one).
    private let block: UnsafeMutableRawPointer
    private static let alignment = 4096
    private let blockSize: Int
    private var staged = 0
    /// Where `withBuffer` formats, before its bytes are staged.
    private var scratch: [UInt8] = []
    /// Bytes written so far and, when buffered, up to where writeback has been started.
    private var written = 0
    private var writebackStarted = 0
    private static let writebackStep = 16 << 20
    let path: String

    /// `direct: false` writes through the page cache (as where O_DIRECT is refused); `blockSize`,
    /// the staging block's, a multiple of 4096.
    package init(path: String, direct directAsked: Bool = true, blockSize: Int = 8 << 20) throws {
        precondition(blockSize > 0 && blockSize % Self.alignment == 0)
        self.path = path
        self.blockSize = blockSize
        var fd: Int32 = -1
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        if directAsked, let oDirect = ByteWriter.oDirect {
            fd = open(path, flags | oDirect, 0o644)
        }
        direct = fd >= 0
        if fd < 0 { fd = open(path, flags, 0o644) }
        guard fd >= 0 else { throw OutputError("cannot create \(path): \(String(cString: strerror(errno)))") }
        self.fd = fd
        block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: Self.alignment)
    }

    deinit {
        block.deallocate()
        if fd >= 0 { Glibc.close(fd) }
    }

    /// O_DIRECT's value (fcntl.h defines it for _GNU_SOURCE only, which Swift's Glibc module is
    /// not built with); nil where it is not known.
    private static var oDirect: Int32? {
        #if os(Linux) && (arch(x86_64) || arch(i386))
        return 0o40000
        #elseif os(Linux) && arch(arm64)
        return 0o200000
        #else
        return nil
        #endif
    }

    package func write(_ s: String) {
        var s = s
        s.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    package func write(bytes: [UInt8]) {
        bytes.withUnsafeBytes { write(bytes: $0) }
    }

    package func write(bytes: UnsafeRawBufferPointer) {
        var at = 0
        while at < bytes.count {
            let n = min(bytes.count - at, blockSize - staged)
            (block + staged).copyMemory(from: bytes.baseAddress! + at, byteCount: n)
            staged += n
            at += n
            if staged == blockSize { writeStaged() }
        }
    }

    /// Appends through a byte array (for formatters that write bytes).
    func withBuffer(_ body: (inout [UInt8]) -> Void) {
        body(&scratch)
        write(bytes: scratch)
        scratch.removeAll(keepingCapacity: true)
    }

    /// A failed write is remembered and reported by `close`, so nothing half-written is committed.
    private var failure: String?

    /// Writes the staged bytes: all of them, or (at `close`, direct) the whole blocks, then the
    /// tail through the page cache.
    private func writeStaged(closing: Bool = false) {
        defer { staged = 0 }
        guard failure == nil, staged > 0 else { return }
        let aligned = direct ? staged / Self.alignment * Self.alignment : staged
        writeOut(UnsafeRawBufferPointer(start: block, count: aligned))
        if aligned < staged {
            precondition(closing, "only the last write may be unaligned")
            // The tail's length is not a multiple of the block.
            guard stopWritingDirect() else {
                failure = "cannot write \(path): \(String(cString: strerror(errno)))"
                return
            }
            writeOut(UnsafeRawBufferPointer(start: block + aligned, count: staged - aligned))
        }
    }

    /// O_DIRECT turned off for the rest of the file; false (errno set) when it cannot be.
    private func stopWritingDirect() -> Bool {
        guard direct else { return true }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~ByteWriter.oDirect!) == 0 else { return false }
        direct = false
        return true
    }

    private func writeOut(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil, var p = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let n = Glibc.write(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                // A file system that took O_DIRECT at open but wants other alignments: buffered from here.
                if errno == EINVAL, direct, stopWritingDirect() { continue }
                failure = "cannot write \(path): \(String(cString: strerror(errno)))"
                return
            }
            p += n
            left -= n
        }
        written += bytes.count
        // Buffered, writeback is started as the file grows, so the fsync at `close` waits for
        // the last blocks only, not for gigabytes of outputs.
        if !direct && written - writebackStarted >= Self.writebackStep {
            _ = sync_file_range(fd, off_t(writebackStarted), off_t(written - writebackStarted), 2 /* SYNC_FILE_RANGE_WRITE */)
            writebackStarted = written
        }
    }

    /// `bytes` as the whole of the file at `path` (through the page cache), synced and closed,
    /// every error of the three named (a full disk on NFS may say so only at the close).
    package static func write(_ bytes: [UInt8], to path: String) throws(OutputError) {
        do {
            let out = try ByteWriter(path: path, direct: false)
            out.write(bytes: bytes)
            try out.close()
        } catch {
            throw error as? OutputError ?? OutputError("cannot write \(path): \(error)")
        }
    }

    package func close() throws {
        writeStaged(closing: true)
        if let failure { throw OutputError(failure) }
        let synced = fsync(fd) == 0
        let error = errno
        Glibc.close(fd)
        fd = -1
        guard synced else { throw OutputError("cannot write \(path): \(String(cString: strerror(error)))") }
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
        var text = s
        text.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// Appends UTF-8 text (read in place: a packed address field) as a JSON string literal.
    static func appendString(utf8 u: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        appendEscaped(u, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// The text's bytes, escaped where JSON needs it (the usual text needs none: copied in one go).
    /// `asJSONEncoder`: backspace and form feed as `\b` and `\f`, as Foundation's JSONEncoder writes
    /// them (so such files keep their bytes); otherwise as `\u0008` and `\u000c`.
    static func appendEscaped(_ u: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], asJSONEncoder: Bool = false) {
        guard u.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            out.append(contentsOf: u)
            return
        }
        for b in u {
            switch b {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 0x0A: out += [92, UInt8(ascii: "n")]
            case 0x0D: out += [92, UInt8(ascii: "r")]
            case 0x09: out += [92, UInt8(ascii: "t")]
            case 0x08 where asJSONEncoder: out += [92, UInt8(ascii: "b")]
            case 0x0C where asJSONEncoder: out += [92, UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
    }
}
