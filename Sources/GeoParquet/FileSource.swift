#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where file bytes come from: a path read with pread(2), or bytes in memory.
enum FileSource: Sendable {
    case path(String)
    case memory([UInt8])
}

/// An open handle for ranged reads. Closes its descriptor when released.
final class RangeReader {
    private let fd: Int32
    private let memory: [UInt8]?
    let size: Int
    private(set) var bytesRead = 0

    init(_ source: FileSource) throws {
        switch source {
        case let .memory(bytes):
            fd = -1
            memory = bytes
            size = bytes.count
        case let .path(p):
            let f = open(p, O_RDONLY | O_CLOEXEC)
            guard f >= 0 else {
                throw DecodeError(kind: .io, message: "cannot open file: \(String(cString: strerror(errno)))")
            }
            var st = stat()
            guard fstat(f, &st) == 0 else {
                close(f)
                throw DecodeError(kind: .io, message: "cannot stat file")
            }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                close(f)
                throw DecodeError(kind: .io, message: "is a directory")
            }
            fd = f
            memory = nil
            size = Int(st.st_size)
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Reads exactly `count` bytes at `offset` (checked against the file size).
    func read(offset: Int, count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw DecodeError.truncated("range \(offset)+\(count) lies outside the \(size)-byte file")
        }
        bytesRead += count
        if let memory { return Array(memory[offset..<(offset + count)]) }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        try out.withUnsafeMutableBytes { buf in
            while done < count {
                guard let base = buf.baseAddress else { return }
                let r = pread(fd, base + done, count - done, off_t(offset + done))
                if r < 0 {
                    if errno == EINTR { continue }
                    throw DecodeError(kind: .io, message: "read failed: \(String(cString: strerror(errno)))")
                }
                if r == 0 { throw DecodeError.truncated("file shorter than expected") }
                done += r
            }
        }
        return out
    }
}
