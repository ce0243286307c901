/// Error thrown for any problem with a GeoParquet/Parquet file. The message is one line and
/// names the file and, when known, the column.
public struct GeoParquetError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The file could not be opened or read.
        case io
        /// The file is not a Parquet file (bad magic, too small).
        case notParquet
        /// The file or a structure inside it ends early.
        case truncated
        /// The Thrift footer or a page header is malformed.
        case corruptMetadata
        /// Page data is malformed (bad levels, bad encoding payload, size mismatch, ...).
        case corruptData
        /// A valid feature this reader does not implement (codec, encoding, type, list column ...).
        case unsupported
        /// A requested column does not exist.
        case columnNotFound
        /// The `geo` key-value metadata is not valid JSON / GeoParquet.
        case invalidGeoMetadata
        /// The caller passed an invalid argument.
        case invalidArgument
    }

    public let kind: Kind
    public let file: String
    public let column: String?
    public let message: String

    public init(kind: Kind, file: String, column: String? = nil, message: String) {
        self.kind = kind
        self.file = file
        self.column = column
        self.message = message
    }

    public var description: String {
        var s = file
        if let column { s += " [column \(column)]" }
        return s + ": " + message
    }
}

/// Internal error used while decoding; converted to `GeoParquetError` at the API boundary,
/// where the file name and column are known.
struct DecodeError: Error {
    let kind: GeoParquetError.Kind
    let message: String

    static func corrupt(_ m: String) -> DecodeError { DecodeError(kind: .corruptData, message: m) }
    static func metadata(_ m: String) -> DecodeError { DecodeError(kind: .corruptMetadata, message: m) }
    static func truncated(_ m: String) -> DecodeError { DecodeError(kind: .truncated, message: m) }
    static func unsupported(_ m: String) -> DecodeError { DecodeError(kind: .unsupported, message: m) }
}

extension GeoParquetError {
    /// Converts any error raised while decoding into a `GeoParquetError` for `file`/`column`.
    static func from(_ error: any Error, file: String, column: String?) -> GeoParquetError {
        if let e = error as? GeoParquetError { return e }
        if let e = error as? DecodeError {
            return GeoParquetError(kind: e.kind, file: file, column: column, message: e.message)
        }
        return GeoParquetError(kind: .io, file: file, column: column, message: "\(error)")
    }
}
