import Foundation

/// The objects under an S3 prefix (ListObjectsV2, every page), for a partitioned GeoParquet
/// dataset named by its prefix: `s3://overturemaps-us-west-2/release/…/type=building/`.
enum S3ObjectList {
    /// The keys under `prefix` that end in `.parquet`, in key order (S3 lists in UTF-8 byte order).
    static func parquetKeys(bucket: String, prefix: String, _ s3: S3Configuration, limits: RemoteReadLimits) throws(RemoteSourceError) -> [String] {
        let transfer = try HTTPTransfer()
        var counters = (requests: 0, bytes: 0)
        var keys: [String] = []
        var token: String?
        repeat {
            var parameters = [("list-type", "2"), ("prefix", prefix)]
            if let token { parameters.append(("continuation-token", token)) }
            let query = S3Signer.canonicalQuery(parameters)
            let target = s3.request(bucket: bucket, key: "")
            let r = try HTTPRangeSource.send(transfer, signed: s3.signer != nil, limits: limits, counters: &counters) {
                let signed = s3.signer?.headers(host: target.host, path: target.path, query: query, range: nil) ?? []
                return (target.url + "?" + query, ["Host: \(target.host)"] + signed)
            }
            let page = String(decoding: r.body, as: UTF8.self)
            keys += elements("Key", in: page).filter { $0.hasSuffix(".parquet") }
            token = elements("IsTruncated", in: page).first == "true" ? elements("NextContinuationToken", in: page).first : nil
        } while token != nil
        return keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// The text of every `<name>…</name>` in a ListObjectsV2 answer, XML entities decoded.
    static func elements(_ name: String, in xml: String) -> [String] {
        var out: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)>"), let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) {
            out.append(String(rest[open.upperBound..<close.lowerBound])
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&"))
            rest = rest[close.upperBound...]
        }
        return out
    }
}
