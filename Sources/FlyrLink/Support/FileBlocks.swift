import Foundation

/// A file read front to back with read(2) into one reused buffer: `FileHandle.read(upToCount:)`
/// reads 4 KB per call on Linux into a fresh `Data` each time.
enum FileBlocks {
    /// Calls `body` with each block of the file at `path` (the bytes are valid only during the
    /// call), then once with an empty block at the end. Throws when the file cannot be opened or read.
    static func forEach(_ path: String, blockSize: Int = 1 << 20,
                        _ body: (UnsafeRawBufferPointer) throws(OutputError) -> Void) throws(OutputError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw OutputError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        #if os(Linux)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(blockSize, 1), alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress!, buffer.count)
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            if n == 0 { return }
        }
    }
}
