import ArgumentParser
import FlyrLink

/// How long and how slowly a remote source's reads may go (`RemoteReadLimits`); shared by the
/// subcommands that read sources, which check the values (`RemoteReadLimits.validate`: one line).
/// (Unconditional: `--remote-min-rate -5` is a value, refused, not an unknown flag.)
struct RemoteReadOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("A remote source's read (one range, its retries included) fails after this many seconds (default \(RemoteReadLimits().timeout)).",
                               valueName: "seconds"))
    var remoteTimeout: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("A remote transfer slower than this many bytes a second over --remote-rate-window is cut and tried again (default \(RemoteReadLimits().minRate)).",
                               valueName: "bytes-per-second"))
    var remoteMinRate: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The seconds over which --remote-min-rate is measured (default \(RemoteReadLimits().rateWindow)).", valueName: "seconds"))
    var remoteRateWindow: Int?

    /// `base` with the limits given here.
    func limits(over base: RemoteReadLimits) -> RemoteReadLimits {
        var l = base
        l.timeout = remoteTimeout ?? l.timeout
        l.minRate = remoteMinRate ?? l.minRate
        l.rateWindow = remoteRateWindow ?? l.rateWindow
        return l
    }

    func apply(to s: inout RunRequest) {
        s.remoteTimeout = remoteTimeout
        s.remoteMinRate = remoteMinRate
        s.remoteRateWindow = remoteRateWindow
    }
}
