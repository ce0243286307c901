/// Where a Parquet file's bytes come from when they are neither a local path nor bytes in memory:
/// an object read with HTTP range requests, for one (FlyrLink's `HTTPRangeSource`). The reader
/// asks for the footer (the last 8 bytes, then the metadata) and for whole column chunks; before a
/// row group's chunks are read, `prepare` names them all, so that a remote source can fetch them in
/// a few coalesced requests instead of one per chunk.
public protocol ByteSource: AnyObject, Sendable {
    /// The file's size in bytes.
    var size: Int { get }
    /// Exactly `count` bytes at `offset` (the reader checks the range against `size` first).
    func read(offset: Int, count: Int) throws -> [UInt8]
    /// The ranges the reader is about to `read`, in file order; a hint, free to ignore.
    func prepare(_ ranges: [Range<Int>]) throws
}

extension ByteSource {
    public func prepare(_ ranges: [Range<Int>]) throws {}
}
