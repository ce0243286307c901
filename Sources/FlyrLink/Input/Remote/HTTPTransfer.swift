import Foundation

internal import CLateBound

/// One HTTP GET through libcurl (bound on first use, like GDAL and libpq: a run that reads no
/// remote source never loads it). A transfer owns one curl handle, so connections are kept alive
/// between the requests of one source; it is used by one thread at a time.
final class HTTPTransfer {
    struct Response {
        var status: Int
        var body: [UInt8]
        /// The Content-Range header's value (`bytes 0-7/1234`), when the server sent one.
        var contentRange: String?
    }

    /// A failure below HTTP: connection refused or reset, timeout, TLS, name resolution.
    struct TransferFailure: Error {
        let code: Int
        let message: String
        /// Worth another attempt: the connection broke or stalled, as opposed to a bad URL or name.
        var isTransient: Bool { [7, 18, 28, 35, 52, 55, 56].contains(code) }
        /// Cut for going under the minimum rate (CURLE_OPERATION_TIMEDOUT, as a time limit is).
        var isTooSlow: Bool { code == 28 && message.contains("too slow") }
    }

    private static let library: LateBoundTable<FlyrCurl> = {
        let table = LateBoundTable(flyr_curl)
        if table.failure == nil { _ = table.functions.curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }
        return table
    }()

    /// Redirects followed before a request fails (curl 8's default; older curl follows a loop until
    /// the hops' headers outgrow its limit, and says "Too large response headers").
    static let maxRedirects = 30

    private let curl: FlyrCurl
    private let handle: UnsafeMutableRawPointer

    /// Collects a response body; handed to the write callback as its context.
    private final class Body { var bytes: [UInt8] = [] }

    init() throws(RemoteSourceError) {
        if let failure = Self.library.failure { throw RemoteSourceError("libcurl is needed to read remote sources: \(failure)") }
        curl = Self.library.functions
        guard let h = curl.curl_easy_init() else { throw RemoteSourceError("libcurl could not create a transfer") }
        handle = h
    }

    deinit { curl.curl_easy_cleanup(handle) }

    /// GET `url` with `headers` (`Name: value`), in at most `seconds`, cut when under `limits`'
    /// minimum rate. HTTP error statuses are returned, not thrown.
    func get(_ url: String, headers: [String], seconds: Double, limits: RemoteReadLimits) throws(TransferFailure) -> Response {
        curl.curl_easy_reset(handle)
        var list: UnsafeMutablePointer<curl_slist>?
        for h in headers { list = curl.curl_slist_append(list, h) }
        defer { curl.curl_slist_free_all(list) }
        let body = Body()
        let context = Unmanaged.passUnretained(body).toOpaque()
        let write: FlyrCurlWrite = { data, size, count, context in
            guard let context else { return 0 }
            let n = size * count
            Unmanaged<Body>.fromOpaque(context).takeUnretainedValue().bytes
                .append(contentsOf: UnsafeRawBufferPointer(start: data, count: n))
            return n
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var curl = self.curl   // the wrappers take the table by pointer
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            _ = url.withCString { flyr_curl_setopt_pointer(&curl, handle, CURLOPT_URL, $0) }
            _ = flyr_curl_setopt_pointer(&curl, handle, CURLOPT_HTTPHEADER, list)
            _ = flyr_curl_setopt_write(&curl, handle, write)
            _ = flyr_curl_setopt_pointer(&curl, handle, CURLOPT_WRITEDATA, context)
            _ = flyr_curl_setopt_pointer(&curl, handle, CURLOPT_ERRORBUFFER, errors.baseAddress)
            _ = flyr_curl_setopt_long(&curl, handle, CURLOPT_MAXREDIRS, Self.maxRedirects)
            _ = "flyr-link".withCString { flyr_curl_setopt_pointer(&curl, handle, CURLOPT_USERAGENT, $0) }
            _ = flyr_curl_setopt_long(&curl, handle, CURLOPT_NOSIGNAL, 1)            // threads: no SIGALRM
            _ = flyr_curl_setopt_long(&curl, handle, CURLOPT_FOLLOWLOCATION, 1)
            let milliseconds = max(1, Int(seconds * 1000))
            _ = flyr_curl_setopt_long(&curl, handle, CURLOPT_CONNECTTIMEOUT_MS, min(15_000, milliseconds))
            _ = flyr_curl_setopt_long(&curl, handle, CURLOPT_TIMEOUT_MS, milliseconds)
            // A stalled or trickling transfer is cut ("too slow"), and retried by the caller.
            _ = flyr_curl_setopt_long(&curl, handle, CURLOPT_LOW_SPEED_LIMIT, limits.minRate)
            _ = flyr_curl_setopt_long(&curl, handle, CURLOPT_LOW_SPEED_TIME, limits.rateWindow)
            return curl.curl_easy_perform(handle)
        }
        if code == CURLE_TOO_MANY_REDIRECTS {
            throw TransferFailure(code: Int(code.rawValue), message: "redirected more than \(Self.maxRedirects) times: a redirect loop (check the URL)")
        }
        guard code == CURLE_OK else {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw TransferFailure(code: Int(code.rawValue),
                                  message: detail.isEmpty ? curl.curl_easy_strerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)" : detail)
        }
        var status = 0
        _ = flyr_curl_getinfo_long(&curl, handle, CURLINFO_RESPONSE_CODE, &status)
        var header: UnsafeMutablePointer<curl_header>?
        var contentRange: String?
        if curl.curl_easy_header(handle, "Content-Range", 0, 1 /* CURLH_HEADER */, -1, &header) == CURLHE_OK,
           let value = header?.pointee.value {
            contentRange = String(cString: value)
        }
        return Response(status: status, body: body.bytes, contentRange: contentRange)
    }
}

/// A remote source that cannot be read, with the one line that says why (the caller prefixes the
/// role and the location: `buildings: https://…: HTTP 404 Not Found`).
struct RemoteSourceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
