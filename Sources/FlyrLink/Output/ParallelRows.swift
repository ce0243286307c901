import Foundation

/// Formats output rows on the workers, a batch of chunks at a time, and writes the chunks in row
/// order: the bytes do not depend on the thread count, and memory holds one batch, not the file.
enum ParallelRows {
    /// `format(i, &bytes)` appends row i; `sink` receives the chunks in order. A batch is handed
    /// to a writing thread while the workers format the next (written on the caller's thread,
    /// every batch left the workers idle for its write: a sixth of the time of the GeoJSON
    /// outputs). At most one batch waits to be written, so memory holds two batches, not the file.
    static func write(_ count: Int, chunkSize: Int = 2048, pool: WorkerPool, sink: ([UInt8]) -> Void,
                      _ format: (Int, inout [UInt8]) -> Void) {
        let chunks = (count + chunkSize - 1) / chunkSize
        let batch = pool.threadCount * 8
        let writer = DispatchQueue(label: "flyr-link.rows.writer")
        let free = DispatchSemaphore(value: 1)
        withoutActuallyEscaping(sink) { sink in
            let shared = UncheckedBox(sink)
            var first = 0
            while first < chunks {
                let n = min(batch, chunks - first)
                let base = first
                let parts = pool.map(n, chunkSize: 1) { _, k -> [UInt8] in
                    var b: [UInt8] = []
                    b.reserveCapacity(chunkSize * 160)
                    let lo = (base + k) * chunkSize
                    for i in lo..<min(lo + chunkSize, count) { format(i, &b) }
                    return b
                }
                free.wait()
                writer.async {
                    for p in parts { shared.value(p) }
                    free.signal()
                }
                first += n
            }
            writer.sync {}  // the last batch written before `sink` goes out of scope
        }
    }
}
