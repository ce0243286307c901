/// Hands memory the process has freed back to the system. glibc keeps freed heap pages for reuse;
/// after the source tables of a large run are dropped that is hundreds of megabytes the later
/// stages, which allocate differently, would not reuse.
enum HeapTrim {
    static func returnFreedMemory() {
        _ = malloc_trim(0)
    }
}

/// glibc's malloc_trim (malloc.h, which the Glibc module does not export).
@_silgen_name("malloc_trim") private func malloc_trim(_ pad: Int) -> Int32
