import Foundation

internal import CLateBound

/// How long one remote read may take and how slowly it may go (`--remote-timeout`,
/// `--remote-min-rate`, `--remote-rate-window`; pipeline keys `remote_timeout`, `remote_min_rate`,
/// `remote_rate_window`): a server that stalls or trickles fails the run with one line, never
/// holds it for ever.
public struct RemoteReadLimits: Sendable, Codable, Equatable {
    /// Seconds one read (a range of an object, with its retries) may take in all.
    public var timeout = 300
    /// Bytes a second a transfer must keep up over `rateWindow` seconds; slower, it is cut (and
    /// tried again while the timeout allows).
    public var minRate = 1024
    public var rateWindow = 15

    public init() {}

    static let timeouts = 1...86_400
    static let minRates = 1...1_000_000_000
    static let rateWindows = 1...3_600

    public func validate() throws(InputError) {
        guard Self.timeouts.contains(timeout) else {
            throw InputError("--remote-timeout (remote_timeout) must be whole seconds from \(Self.timeouts.lowerBound) to \(Self.timeouts.upperBound), not \(timeout)")
        }
        guard Self.minRates.contains(minRate) else {
            throw InputError("--remote-min-rate (remote_min_rate) must be bytes a second from \(Self.minRates.lowerBound) to \(Self.minRates.upperBound), not \(minRate)")
        }
        guard Self.rateWindows.contains(rateWindow) else {
            throw InputError("--remote-rate-window (remote_rate_window) must be whole seconds from \(Self.rateWindows.lowerBound) to \(Self.rateWindows.upperBound), not \(rateWindow)")
        }
    }

    /// What a read cut by these limits says: too slow, or out of time.
    var tooSlow: String {
        "too slow: under \(minRate) bytes a second for \(rateWindow) s (--remote-min-rate, --remote-rate-window)"
    }
    var timedOut: String {
        "timed out: not read within \(timeout) s (--remote-timeout)"
    }

    /// `body` with GDAL's HTTP reads of `spec` (/vsicurl/, /vsis3/, a URL) held to these limits on
    /// this thread (GDAL reads a layer on the thread that opened it); as they were after. A local
    /// source loads no GDAL for it.
    func applyingToGDAL<T>(for spec: SourceSpec, _ body: () throws(InputError) -> T) throws(InputError) -> T {
        guard RemoteLocation.isRemote(spec.location) || spec.location.hasPrefix("/vsi"), (try? GDALEnvironment.ready()) != nil else { return try body() }
        let settings = [("GDAL_HTTP_TIMEOUT", timeout), ("GDAL_HTTP_LOW_SPEED_LIMIT", minRate), ("GDAL_HTTP_LOW_SPEED_TIME", rateWindow)]
        // A value set in the environment (or on this thread already) wins.
        let mine = settings.filter { ProcessInfo.processInfo.environment[$0.0] == nil && gdal.CPLGetThreadLocalConfigOption($0.0, nil) == nil }
        for (key, value) in mine { gdal.CPLSetThreadLocalConfigOption(key, String(value)) }
        defer { for (key, _) in mine { gdal.CPLSetThreadLocalConfigOption(key, nil) } }
        return try body()
    }
}
