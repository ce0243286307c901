import Glibc

/// Hands a large buffer's pages back once a pass has read them for the last time, so the buffer and
/// what is made from it are never both full size. Pages read as zeros afterwards: no references.
package enum ConsumedPages {
    /// Drops the whole pages of `buffer` that lie below element `end`.
    package static func drop<T>(_ buffer: UnsafeBufferPointer<T>, below end: Int) {
        precondition(_isPOD(T.self), "only buffers without references")
        guard let base = buffer.baseAddress, end > 0 else { return }
        let (lower, upper) = wholePages(from: Int(bitPattern: base), bytes: min(end, buffer.count) * MemoryLayout<T>.stride)
        guard upper > lower, let region = UnsafeMutableRawPointer(bitPattern: lower) else { return }
        _ = madvise(region, upper - lower, MADV_DONTNEED)
    }

    /// Drops the whole pages of `buffer` from element `start` on (room that will not be read).
    static func dropTail<T>(_ buffer: UnsafeBufferPointer<T>, from start: Int) {
        precondition(_isPOD(T.self), "only buffers without references")
        guard let base = buffer.baseAddress, start < buffer.count else { return }
        let stride = MemoryLayout<T>.stride
        let (lower, upper) = wholePages(from: Int(bitPattern: base) + start * stride, bytes: (buffer.count - start) * stride)
        guard upper > lower, let region = UnsafeMutableRawPointer(bitPattern: lower) else { return }
        _ = madvise(region, upper - lower, MADV_DONTNEED)
    }

    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The addresses of the first and past the last whole page within `bytes` from `start`.
    static func wholePages(from start: Int, bytes: Int) -> (lower: Int, upper: Int) {
        ((start + pageSize - 1) & ~(pageSize - 1), (start + bytes) & ~(pageSize - 1))
    }
}

/// A gathered buffer's pages, each dropped once its expected reads are done: a copy into a similar
/// order holds little more than one buffer. Pages only partly inside are kept.
struct PageCountdown {
    private let firstPage: Int
    private let offset: Int
    private var remaining: [Int32]
    private let page: Int

    /// Over the bytes of `buffer` (its whole pages).
    init<T>(_ buffer: UnsafeBufferPointer<T>) {
        precondition(_isPOD(T.self), "only buffers without references")
        page = ConsumedPages.pageSize
        let start = Int(bitPattern: buffer.baseAddress)
        let (lower, upper) = ConsumedPages.wholePages(from: start, bytes: buffer.count * MemoryLayout<T>.stride)
        firstPage = lower / page
        offset = start
        remaining = [Int32](repeating: 0, count: max(upper - lower, 0) / page)
    }

    /// The whole pages among those `bytes` (offsets in the buffer) lie on.
    private func pages(_ bytes: Range<Int>) -> Range<Int> {
        guard !bytes.isEmpty, !remaining.isEmpty else { return 0..<0 }
        let first = (offset + bytes.lowerBound) / page - firstPage, last = (offset + bytes.upperBound - 1) / page - firstPage
        return max(first, 0)..<min(last + 1, remaining.count)
    }

    /// One read of `bytes` to come.
    mutating func expect(_ bytes: Range<Int>) {
        for p in pages(bytes) { remaining[p] += 1 }
    }

    /// A read of `bytes` done; the pages no read is left on are handed back.
    mutating func done(_ bytes: Range<Int>) {
        for p in pages(bytes) {
            remaining[p] -= 1
            if remaining[p] == 0, let at = UnsafeMutableRawPointer(bitPattern: (firstPage + p) * page) {
                _ = madvise(at, page, MADV_DONTNEED)
            }
        }
    }
}
