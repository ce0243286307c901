/// How the process's heap gives memory back: glibc's default trimming shrinks and regrows the heap
/// page by page (a sixth of a 10M run's CPU in the kernel), so a run returns memory where it chooses.
public enum HeapTrim {
    /// Keeps freed heap memory for reuse and grows the heap in 16 MB steps; once, before the pipeline.
    /// Setting these fixes the mmap threshold too, so it is set: 4 MB, lowest system time at equal peak.
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
