import Foundation

/// A file mapped read-only and private, so its pages come from the page cache as they are read and
/// can be dropped again (GeoJSONScanner.releaseConsumed) without copying the file into memory.
package final class MappedFile {
    package let bytes: UnsafeRawBufferPointer
    private let length: Int

    package init(path: String) throws(InputError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw InputError("cannot read \(path): \(String(cString: strerror(errno)))") }
        length = Int(st.st_size)
        guard length > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let p = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            throw InputError("cannot map \(path): \(String(cString: strerror(errno)))")
        }
        madvise(p, length, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: p, count: length)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), length) }
    }
}
