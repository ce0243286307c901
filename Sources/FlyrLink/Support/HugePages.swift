import Glibc

/// Asks the kernel for 2 MB pages (transparent huge pages) behind a large array that is read in
/// random order. The id ordering gathers every row from a random place in the rows as read: at
/// 10M buildings, with 4 KB pages nearly every one of those reads also missed the TLB (the gather
/// took 1.3–1.5 s a layer; with 2 MB pages 0.4–0.9 s). Only the 2 MB-aligned interior of the
/// array's storage is advised, before its pages are touched; where the kernel's THP setting is
/// `never`, the advice is refused and nothing changes.
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
