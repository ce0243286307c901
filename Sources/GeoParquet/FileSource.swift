#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where file bytes come from: a path read with pread(2), bytes in memory, or a `ByteSource`
/// (e.g. an object read over HTTP).
enum FileSource: Sendable {
    case path(String)
    case memory([UInt8])
    case external(any ByteSource)
}

/// An open handle for ranged reads. Closes its descriptor when released.
final class RangeReader {
    private let fd: Int32
    private let memory: [UInt8]?
    private let external: (any ByteSource)?
    let size: Int
    private(set) var bytesRead = 0

    init(_ source: FileSource) throws {
        switch source {
        case let .memory(bytes):
            fd = -1
            memory = bytes
            external = nil
            size = bytes.count
        case let .external(source):
            fd = -1
            memory = nil
            external = source
            size = source.size
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
            external = nil
            size = Int(st.st_size)
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Announces the ranges about to be read (a remote source fetches them together).
    func prepare(_ ranges: [Range<Int>]) throws {
        try external?.prepare(ranges)
    }

    /// Reads exactly `count` bytes at `offset` (checked against the file size).
    func read(offset: Int, count: Int) throws -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw DecodeError.truncated("range \(offset)+\(count) lies outside the \(size)-byte file")
        }
        bytesRead += count
        if let memory { return Array(memory[offset..<(offset + count)]) }
        if let external { return try external.read(offset: offset, count: count) }
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
