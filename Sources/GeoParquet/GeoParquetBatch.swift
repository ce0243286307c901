/// The rows of one row group that passed the spatial filter.
public struct GeoParquetBatch: Sendable {
    /// Number of rows in this batch.
    public var rowCount: Int
    /// Index (in the file) of the first row of the row group this batch comes from.
    public var firstRowIndex: Int
    /// Row group index in the file.
    public var rowGroupIndex: Int
    /// File row index of every row when rows were dropped by the bbox filter; nil when the batch
    /// holds all rows of the row group (row i is then `firstRowIndex + i`).
    public var rowIndices: [Int]?
    /// WKB of the geometry column per row (nil = null geometry). Empty when no geometry column is read.
    public var geometryWKB: [[UInt8]?]
    /// Requested attribute columns by dotted path.
    public var values: [String: ParquetValues]
}

/// Counters for one `read` call.
public struct ReadStats: Sendable, Equatable {
    public var rowGroupsTotal: Int
    public var rowGroupsRead: Int
    /// Bytes fetched from the file for column chunks.
    public var bytesRead: Int
    /// Rows handed to the handler.
    public var rowsReturned: Int
}
