import Glibc

/// Asks for transparent huge pages behind a large array read in random order (the id ordering's
/// gather, TLB-bound: 1.3–1.5 s a 10M layer with 4 KB pages, 0.4–0.9 s with 2 MB). No-op under THP `never`.
enum HugePages {
    /// Arrays smaller than this are left alone (they hold at most a page or two).
    static let minimumBytes = 4 << 20

    /// Advises the storage of `array`'s whole capacity.
    static func advise<T>(_ array: inout [T]) {
        let bytes = array.capacity * MemoryLayout<T>.stride
        array.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { advise(UnsafeMutableRawPointer(base), bytes: bytes) }
        }
    }

    /// Advises the 2 MB pages that lie wholly inside `bytes` from `start` (none below `minimumBytes`).
    static func advise(_ start: UnsafeMutableRawPointer, bytes: Int) {
        guard bytes >= minimumBytes else { return }
        let huge = 2 << 20
        let lower = (Int(bitPattern: start) + huge - 1) & ~(huge - 1)
        let upper = (Int(bitPattern: start) + bytes) & ~(huge - 1)
        guard upper > lower, let region = UnsafeMutableRawPointer(bitPattern: lower) else { return }
        _ = madvise(region, upper - lower, MADV_HUGEPAGE)
    }
}
