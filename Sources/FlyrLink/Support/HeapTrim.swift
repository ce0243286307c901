/// How the process's heap gives memory back. glibc keeps freed heap pages for reuse, but by
/// default it shrinks a heap whose free top passes 128 kB and grows it again page by page: at 10M
/// buildings that was 230,000 mprotect calls and gigabytes of pages zeroed twice (a sixth of the
/// run's CPU in the kernel). Memory is returned where a run chooses to (`returnFreedMemory`).
public enum HeapTrim {
    /// Keeps freed heap memory for the next allocation instead of returning it at once, and grows
    /// the heap in 16 MB steps. For the process that runs the pipeline, once, before it starts.
    /// Setting any of these turns off glibc's own adjustment of the size above which a block gets
    /// pages of its own (mmap, zeroed afresh every time), so that size is set too: 4 MB, where
    /// the 1M run's system time was lowest with its peak unchanged (32 MB kept 64 MB more resident).
    public static func keepFreedMemoryForReuse() {
        _ = mallopt(mTrimThreshold, 1 << 30)
        _ = mallopt(mTopPad, 16 << 20)
        _ = mallopt(mMmapThreshold, 4 << 20)
    }

    static func returnFreedMemory() {
        _ = malloc_trim(0)
    }

    // malloc.h's M_TRIM_THRESHOLD, M_TOP_PAD and M_MMAP_THRESHOLD.
    private static let mTrimThreshold: Int32 = -1
    private static let mTopPad: Int32 = -2
    private static let mMmapThreshold: Int32 = -3
}

/// glibc's malloc_trim and mallopt (malloc.h, which the Glibc module does not export).
@_silgen_name("malloc_trim") private func malloc_trim(_ pad: Int) -> Int32
@_silgen_name("mallopt") private func mallopt(_ param: Int32, _ value: Int32) -> Int32
