import Foundation

/// A source named by a URL rather than a local path: `https://…`, `http://…`, GDAL's
/// `/vsicurl/…`, and S3 objects as `s3://bucket/key` or GDAL's `/vsis3/bucket/key`.
enum RemoteLocation: Equatable {
    case http(url: String)
    case s3(bucket: String, key: String)

    /// The remote location `text` names, nil for anything else (a local path, `PG:`, …).
    init?(_ text: String) {
        let lower = text.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            self = .http(url: text)
        } else if lower.hasPrefix("/vsicurl/") {
            let url = String(text.dropFirst("/vsicurl/".count))
            guard url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://") else { return nil }
            self = .http(url: url)
        } else if lower.hasPrefix("s3://") || lower.hasPrefix("/vsis3/") {
            let rest = text.dropFirst(lower.hasPrefix("s3://") ? "s3://".count : "/vsis3/".count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            guard slash != rest.startIndex else { return nil }
            self = .s3(bucket: String(rest[..<slash]), key: slash == rest.endIndex ? "" : String(rest[rest.index(after: slash)...]))
        } else {
            return nil
        }
    }

    static func isRemote(_ text: String) -> Bool { RemoteLocation(text) != nil }

    /// An S3 prefix (`s3://bucket/dir/`, `s3://bucket/`) rather than one object: a partitioned
    /// dataset, read as every `.parquet` object under it.
    var isPrefix: Bool {
        if case let .s3(_, key) = self { return key.isEmpty || key.hasSuffix("/") }
        return false
    }

    /// The path part (no query), for telling the format by its extension.
    var pathForExtension: String {
        switch self {
        case let .http(url): return String(url.prefix { $0 != "?" && $0 != "#" })
        case let .s3(_, key): return key
        }
    }

    /// The same location as GDAL's virtual file systems name it, for the formats GDAL reads.
    var gdalPath: String {
        switch self {
        case let .http(url): return "/vsicurl/" + url
        case let .s3(bucket, key): return "/vsis3/\(bucket)/\(key)"
        }
    }
}
