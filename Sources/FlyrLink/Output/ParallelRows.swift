import Foundation

/// The bytes one chunk of rows is formatted into: a buffer per output file, and a scratch buffer
/// for a part several outputs share (formatted once, then copied into each).
struct RowBuffers {
    var outputs: [[UInt8]]
    var scratch: [UInt8] = []
}

/// Formats output rows on the workers, a batch of chunks at a time, and writes the chunks in row
/// order: the bytes do not depend on the thread count, and memory holds one batch, not the file.
enum ParallelRows {
    /// `format(i, &bytes)` appends row i; `sink` receives the chunks in order.
    static func write(_ count: Int, chunkSize: Int = 2048, pool: WorkerPool, sink: ([UInt8]) -> Void,
                      _ format: (Int, inout [UInt8]) -> Void) {
        write(count, outputs: 1, chunkSize: chunkSize, pool: pool, sink: { _, bytes in sink(bytes) }) { i, rows in
            format(i, &rows.outputs[0])
        }
    }

    /// Rows written to several outputs in one pass: `format(i, &rows)` appends row i's bytes to
    /// `rows.outputs[k]` for output k; `sink(k, bytes)` receives output k's chunks in order.
    ///
    /// A batch is handed to a writing thread while the workers format the next (written on the
    /// caller's thread, every batch left the workers idle for its write: a sixth of the time of
    /// the GeoJSON outputs). At most one batch waits to be written, so memory holds two batches,
    /// not the files.
    static func write(_ count: Int, outputs: Int, chunkSize: Int = 2048, pool: WorkerPool, sink: (Int, [UInt8]) -> Void,
                      _ format: (Int, inout RowBuffers) -> Void) {
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
                let parts = pool.map(n, chunkSize: 1) { _, k -> [[UInt8]] in
                    var rows = RowBuffers(outputs: (0..<outputs).map { _ in
                        var b: [UInt8] = []
                        b.reserveCapacity(chunkSize * 160)
                        return b
                    })
                    let lo = (base + k) * chunkSize
                    for i in lo..<min(lo + chunkSize, count) { format(i, &rows) }
                    return rows.outputs
                }
                free.wait()
                writer.async {
                    for p in parts {
                        for (k, bytes) in p.enumerated() { shared.value(k, bytes) }
                    }
                    free.signal()
                }
                first += n
            }
            writer.sync {}  // the last batch written before `sink` goes out of scope
        }
    }
}
