/// Formats output rows on the workers, a batch of chunks at a time, and writes the chunks in row
/// order: the bytes do not depend on the thread count, and memory holds one batch, not the file.
enum ParallelRows {
    /// `format(i, &bytes)` appends row i; `sink` receives the chunks in order.
    static func write(_ count: Int, chunkSize: Int = 2048, pool: WorkerPool, sink: ([UInt8]) -> Void,
                      _ format: (Int, inout [UInt8]) -> Void) {
        let chunks = (count + chunkSize - 1) / chunkSize
        let batch = pool.threadCount * 8
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
            for p in parts { sink(p) }
            first += n
        }
    }
}
