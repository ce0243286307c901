import Foundation
import GeoParquet

/// A remote object read with HTTP range requests, for the GeoParquet reader: its size and tail
/// from one suffix request (`bytes=-8`), then the ranges the reader asks for. The column chunks a
/// row group needs, named by `prepare`, are fetched together — ranges closer than `coalesceGap`
/// in one request — and kept until the next row group's; anything else is fetched as asked.
/// Transient failures (5xx, 429, stalls, broken connections) are retried with backoff while the
/// read's time (`RemoteReadLimits`) lasts; 403, 404 and other client errors end the read with one line.
final class HTTPRangeSource: ByteSource, @unchecked Sendable {
    /// How many times a request is tried, and the pause before the second try (doubled each time).
    static let attempts = 4
    static let firstRetryDelay = 0.25
    /// Ranges this close are fetched as one: a few wasted bytes are cheaper than a round trip.
    static let coalesceGap = 8 * 1024

    let size: Int
    private let location: RemoteLocation
    private let limits: RemoteReadLimits
    private let s3: S3Configuration?
    private let transfer: HTTPTransfer
    private let lock = NSLock()
    /// Fetched blocks: the file's tail (the footer is read from it) and the current row group's.
    private var tail: (offset: Int, bytes: [UInt8])
    private var blocks: [(offset: Int, bytes: [UInt8])] = []
    private var counters = (requests: 0, bytes: 0)

    /// Requests sent (retries included) and body bytes received so far.
    var requests: Int { lock.withLock { counters.requests } }
    var bytesFetched: Int { lock.withLock { counters.bytes } }

    init(_ location: RemoteLocation, limits: RemoteReadLimits = RemoteReadLimits(),
         environment: [String: String] = ProcessInfo.processInfo.environment) throws(RemoteSourceError) {
        self.location = location
        self.limits = limits
        if case .s3 = location { s3 = try S3Configuration(environment: environment) } else { s3 = nil }
        transfer = try HTTPTransfer()
        var first = (requests: 0, bytes: 0)
        let r = try Self.send(transfer, location, s3, limits, range: "bytes=-8", counters: &first)
        if r.status == 200 {   // the server ignores Range: the body is the whole object
            size = r.body.count
            tail = (0, r.body)
        } else {
            guard let total = r.contentRange.flatMap(Self.totalSize) else {
                throw RemoteSourceError("the server's answer to a range request has no object size (Content-Range: \(r.contentRange ?? "none"))")
            }
            size = total
            tail = (total - r.body.count, r.body)
        }
        counters = first
    }

    func read(offset: Int, count: Int) throws -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        for block in [tail] + blocks where offset >= block.offset && offset + count <= block.offset + block.bytes.count {
            let start = offset - block.offset
            return Array(block.bytes[start..<(start + count)])
        }
        return try fetch(offset..<(offset + count))
    }

    func prepare(_ ranges: [Range<Int>]) throws {
        lock.lock()
        defer { lock.unlock() }
        blocks = []   // the previous row group's chunks are decoded: only the new ones are kept
        var merged: [Range<Int>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !r.isEmpty {
            if let last = merged.last, r.lowerBound <= last.upperBound + Self.coalesceGap {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        for r in merged where !(r.lowerBound >= tail.offset && r.upperBound <= tail.offset + tail.bytes.count) {
            blocks.append((r.lowerBound, try fetch(r)))
        }
    }

    /// One range, exactly (a server that ignores Range sends the whole object: the range is cut from it).
    private func fetch(_ range: Range<Int>) throws(RemoteSourceError) -> [UInt8] {
        let r = try Self.send(transfer, location, s3, limits, range: "bytes=\(range.lowerBound)-\(range.upperBound - 1)", counters: &counters)
        if r.status == 200, r.body.count == size { return Array(r.body[range]) }
        guard r.body.count == range.count else {
            throw RemoteSourceError("the server sent \(r.body.count) bytes for the \(range.count)-byte range \(range.lowerBound)-\(range.upperBound - 1)")
        }
        return r.body
    }

    /// One ranged GET of the object, with retries (`send`).
    private static func send(_ transfer: HTTPTransfer, _ location: RemoteLocation, _ s3: S3Configuration?, _ limits: RemoteReadLimits,
                             range: String, counters: inout (requests: Int, bytes: Int)) throws(RemoteSourceError) -> HTTPTransfer.Response {
        try send(transfer, signed: s3.map { $0.signer != nil }, limits: limits, counters: &counters) {
            switch location {
            case let .http(u):
                return (u, ["Range: \(range)"])
            case let .s3(bucket, key):
                let target = s3?.request(bucket: bucket, key: key) ?? (url: "", host: "", path: "")
                let signed = s3?.signer?.headers(host: target.host, path: target.path, range: range) ?? ["Range: \(range)"]
                return (target.url, ["Host: \(target.host)"] + signed)
            }
        }
    }

    /// One GET, tried up to `attempts` times while the failure is transient and `limits.timeout`
    /// lasts (the attempts and the pauses between them all within it); a 2xx response, or the
    /// error that ends the read. `request` gives the URL and headers of each attempt (an S3
    /// signature holds the time). `signed`: whether S3 requests are signed (nil: not S3).
    static func send(_ transfer: HTTPTransfer, signed: Bool?, limits: RemoteReadLimits, counters: inout (requests: Int, bytes: Int),
                     request: () -> (url: String, headers: [String])) throws(RemoteSourceError) -> HTTPTransfer.Response {
        let deadline = ProcessInfo.processInfo.systemUptime + Double(limits.timeout)
        var left: Double { deadline - ProcessInfo.processInfo.systemUptime }
        var delay = firstRetryDelay
        for attempt in 1...attempts {
            let (url, headers) = request()
            counters.requests += 1
            // (The last attempt is the last one the time left allows too.)
            let last = attempt == attempts || left <= delay
            let suffix = attempt > 1 ? " (after \(attempt) attempts)" : ""
            let r: HTTPTransfer.Response
            do {
                r = try transfer.get(url, headers: headers, seconds: max(left, 0.001), limits: limits)
            } catch {
                // (curl's time limit was the time left: out of it, nothing more is tried.)
                if error.code == 28, left < 0.05 { throw RemoteSourceError(limits.timedOut + suffix) }
                if !last, error.isTransient {
                    Thread.sleep(forTimeInterval: delay)
                    delay *= 2
                    continue
                }
                throw RemoteSourceError((error.isTooSlow ? limits.tooSlow : error.message) + suffix)
            }
            if (200..<300).contains(r.status) {
                counters.bytes += r.body.count
                return r
            }
            if !last, [408, 429, 500, 502, 503, 504].contains(r.status) {
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
                continue
            }
            throw RemoteSourceError("HTTP \(r.status) \(reasonPhrase(r.status))\(detail(r, signed: signed))\(suffix)")
        }
        throw RemoteSourceError("no attempt made")   // attempts ≥ 1: not reached
    }

    /// The object's size from a Content-Range value: `bytes 0-7/1234` → 1234, `bytes */0` → 0.
    static func totalSize(_ contentRange: String) -> Int? {
        guard let slash = contentRange.lastIndex(of: "/") else { return nil }
        return Int(contentRange[contentRange.index(after: slash)...].trimmingCharacters(in: .whitespaces))
    }

    /// What an S3-style XML error body says (`<Code>`, `<Message>`), and a hint for an unsigned
    /// request that was refused.
    private static func detail(_ r: HTTPTransfer.Response, signed: Bool?) -> String {
        let text = String(decoding: r.body.prefix(4096), as: UTF8.self)
        func element(_ name: String) -> String? {
            guard let open = text.range(of: "<\(name)>"), let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex) else { return nil }
            return String(text[open.upperBound..<close.lowerBound])
        }
        var parts: [String] = []
        if let code = element("Code") { parts.append(element("Message").map { "\(code): \($0)" } ?? code) }
        if signed == false, r.status == 403 || r.status == 401 {
            parts.append("the request was unsigned: no AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_NO_SIGN_REQUEST set")
        }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 410: return "Gone"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "error"
        }
    }
}
