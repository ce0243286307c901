import Foundation

/// AWS Signature Version 4 for S3 GET requests (the headers `Authorization`, `x-amz-date`,
/// `x-amz-content-sha256`, and `x-amz-security-token` with temporary credentials), computed with
/// the project's SHA-256 (libcrypto) and HMAC-SHA256 on top of it.
struct S3Signer: Sendable {
    let accessKeyID: String
    let secretAccessKey: String
    let sessionToken: String?
    let region: String

    /// SHA-256 of an empty body: a GET's payload hash.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The headers to send with a GET of `path` (already URI-encoded, as in the request line) on
    /// `host` (with `:port` when the URL has one), at `date`. `range`: the Range header's value;
    /// `query`: the canonical query string (`S3Signer.canonicalQuery`), as sent.
    func headers(host: String, path: String, query: String = "", range: String?, date: Date = Date()) -> [String] {
        let stamp = Self.timestamp(date)
        let day = String(stamp.prefix(8))
        var signed: [(String, String)] = [("host", host)]
        if let range { signed.append(("range", range)) }
        signed.append(("x-amz-content-sha256", Self.emptyPayloadHash))
        signed.append(("x-amz-date", stamp))
        if let sessionToken { signed.append(("x-amz-security-token", sessionToken)) }
        let signedNames = signed.map(\.0).joined(separator: ";")
        let canonicalRequest = ["GET", path, query, signed.map { "\($0.0):\($0.1)\n" }.joined(), signedNames,
                                Self.emptyPayloadHash].joined(separator: "\n")
        let scope = "\(day)/\(region)/s3/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, SHA256.hash(Array(canonicalRequest.utf8))].joined(separator: "\n")
        var key = Self.hmac(Array("AWS4\(secretAccessKey)".utf8), day)
        for part in [region, "s3", "aws4_request"] { key = Self.hmac(key, part) }
        let signature = SHA256.hex(Self.hmac(key, stringToSign))
        var out = signed.filter { $0.0 != "host" }.map { "\($0.0): \($0.1)" }
        out.append("Authorization: AWS4-HMAC-SHA256 Credential=\(accessKeyID)/\(scope), SignedHeaders=\(signedNames), Signature=\(signature)")
        return out
    }

    /// `20130524T000000Z`: the request time in UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// HMAC-SHA256 (RFC 2104) of `message` under `key`.
    static func hmac(_ key: [UInt8], _ message: String) -> [UInt8] {
        var block = key.count > 64 ? sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(Array(message.utf8))
        let innerDigest = inner.finish()
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(innerDigest)
        return outer.finish()
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var s = SHA256()
        s.update(bytes)
        return s.finish()
    }

    /// Query parameters as SigV4 signs them (and as they must be sent): names and values
    /// percent-encoded, `/` included, sorted by name.
    static func canonicalQuery(_ parameters: [(String, String)]) -> String {
        parameters.map { (encode($0.0, keepSlash: false), encode($0.1, keepSlash: false)) }
            .sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// A key's path as S3 signs it: every byte but the unreserved ones and `/` percent-encoded.
    static func encodePath(_ key: String) -> String { encode(key, keepSlash: true) }

    private static func encode(_ text: String, keepSlash: Bool) -> String {
        var out = ""
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                out += String(format: "%%%02X", b)
            }
        }
        return out
    }
}
