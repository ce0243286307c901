import Foundation

/// Where an S3 object is fetched from and how requests are signed, from the usual AWS environment
/// variables: the endpoint from `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL`, or GDAL's
/// `AWS_S3_ENDPOINT` (host[:port], https unless `AWS_HTTPS=NO`), else AWS itself; the region from
/// `AWS_REGION` / `AWS_DEFAULT_REGION` (us-east-1); credentials from `AWS_ACCESS_KEY_ID`,
/// `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, none with `AWS_NO_SIGN_REQUEST=YES`.
struct S3Configuration {
    /// `scheme://host[:port]` of a custom endpoint; nil = AWS.
    var endpoint: String?
    var region: String
    /// `BUCKET.host/KEY` rather than `host/BUCKET/KEY`: AWS's default; custom endpoints (MinIO,
    /// moto, Ceph) use path style unless `AWS_VIRTUAL_HOSTING=TRUE`.
    var virtualHosting: Bool
    /// nil: requests go unsigned (a public bucket).
    var signer: S3Signer?

    init(environment env: [String: String] = ProcessInfo.processInfo.environment) throws(RemoteSourceError) {
        func value(_ name: String) -> String? { env[name].flatMap { $0.isEmpty ? nil : $0 } }
        func yes(_ name: String) -> Bool { ["yes", "true", "on", "1"].contains(value(name)?.lowercased() ?? "") }
        region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? "us-east-1"
        if let url = value("AWS_ENDPOINT_URL_S3") ?? value("AWS_ENDPOINT_URL") {
            endpoint = url
        } else if let host = value("AWS_S3_ENDPOINT") {
            endpoint = host.contains("://") ? host : ((value("AWS_HTTPS")?.lowercased() == "no" ? "http://" : "https://") + host)
        }
        while endpoint?.hasSuffix("/") == true { endpoint?.removeLast() }
        virtualHosting = endpoint == nil || yes("AWS_VIRTUAL_HOSTING")
        if yes("AWS_NO_SIGN_REQUEST") { return }
        switch (value("AWS_ACCESS_KEY_ID"), value("AWS_SECRET_ACCESS_KEY")) {
        case let (id?, secret?):
            signer = S3Signer(accessKeyID: id, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"), region: region)
        case (_?, nil):
            throw RemoteSourceError("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
        case (nil, _?):
            throw RemoteSourceError("AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not")
        case (nil, nil):
            break
        }
    }

    /// The URL of an object, with the Host header's value and the encoded path that are signed.
    func request(bucket: String, key: String) -> (url: String, host: String, path: String) {
        let base = endpoint ?? "https://s3.\(region).amazonaws.com"
        let schemeEnd = base.range(of: "://").map(\.upperBound) ?? base.startIndex
        let scheme = String(base[..<schemeEnd])
        var host = String(base[schemeEnd...])
        var prefix = ""
        if let slash = host.firstIndex(of: "/") { prefix = String(host[slash...]); host = String(host[..<slash]) }
        var path = prefix + "/" + S3Signer.encodePath(key)
        if virtualHosting { host = "\(bucket).\(host)" } else { path = prefix + "/" + S3Signer.encodePath(bucket) + "/" + S3Signer.encodePath(key) }
        return (scheme + host + path, host, path)
    }
}
