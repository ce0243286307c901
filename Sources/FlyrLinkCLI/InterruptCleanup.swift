import Dispatch
import FlyrLink
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM during `run`: the run's staging directory is removed and the process
/// ends with 130 / 143, the previous output untouched. The signals are taken from the default action
/// and delivered to a dispatch source, so the cleanup runs on an ordinary thread (a C signal handler
/// may not allocate or take locks) and coordinates with the commit through `ActiveStaging`'s lock.
enum InterruptCleanup {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install() {
        for (sig, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { ActiveStaging.abandonAndExit(status: status) }
            source.resume()
            sources.append(source)
        }
    }
}
