/// A C library's function table from CLateBound, bound on first use: the table, or the loader's
/// message when the library could not be loaded. Written once (by the library's own lazily
/// initialised global) and only read after, so shared freely.
struct LateBoundTable<Functions>: @unchecked Sendable {
    private let table: UnsafePointer<Functions>?
    /// Why the library could not be bound; nil when it was.
    let failure: String?

    /// `bind`: the CLateBound accessor (`flyr_gdal`, `flyr_pq`).
    init(_ bind: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> UnsafePointer<Functions>?) {
        var error: UnsafePointer<CChar>?
        table = bind(&error)
        failure = table == nil ? error.map { String(cString: $0) } ?? "unknown error" : nil
    }

    /// The functions. Only once `failure` was found nil: every caller's `ready()` comes first,
    /// so reaching here without the library is a bug, stopped with the loader's message.
    @inline(__always)
    var functions: Functions {
        guard let table else { preconditionFailure("a late-bound library used before it was checked: \(failure ?? "")") }
        return table.pointee
    }
}
