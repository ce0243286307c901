import Glibc

/// Hands the pages of a large buffer back to the kernel as soon as a pass has read them for the
/// last time, before the buffer itself is freed: so that what a pass makes from a buffer and the
/// buffer are never both at their full size (at 1M addresses, the links and the proposals they
/// are made from: 34 and 45 MB). The pages read as zeros afterwards; the caller reads no element
/// below the mark again. Only for elements without references (zeroed bytes must not be a
/// reference anyone releases).
enum ConsumedPages {
    /// Drops the whole pages of `buffer` that lie below element `end`.
    static func drop<T>(_ buffer: UnsafeBufferPointer<T>, below end: Int) {
        precondition(_isPOD(T.self), "only buffers without references")
        guard let base = buffer.baseAddress, end > 0 else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let lower = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let upper = (Int(bitPattern: base) + min(end, buffer.count) * MemoryLayout<T>.stride) & ~(page - 1)
        guard upper > lower, let region = UnsafeMutableRawPointer(bitPattern: lower) else { return }
        _ = madvise(region, upper - lower, MADV_DONTNEED)
    }
}
