import FlyrLink
import Foundation

extension PipelineEvent {
    /// The event with any password in its detail masked.
    var masked: PipelineEvent {
        switch self {
        case .started(let stage, let detail): .started(stage, detail: ConnectionSecrets.masked(detail))
        case .finished(let stage, let detail, let seconds, let items):
            .finished(stage, detail: ConnectionSecrets.masked(detail), seconds: seconds, items: items)
        case .progress(let stage, let detail): .progress(stage, detail: ConnectionSecrets.masked(detail))
        }
    }
}

/// Shows pipeline events on stderr, one line per finished stage (the running one, and the read's
/// features so far, on a line rewritten in place), only when stderr is a terminal.
final class ProgressRenderer: @unchecked Sendable {
    let enabled: Bool
    private let lock = NSLock()

    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// 1234567 → "1.2M", 45678 → "45.7k".
    static func compact(_ x: Double) -> String {
        if x >= 1e6 { return String(format: "%.1fM", x / 1e6) }
        if x >= 1e3 { return String(format: "%.1fk", x / 1e3) }
        return String(format: "%.0f", x)
    }

    init(enabled: Bool) { self.enabled = enabled }

    var observer: PipelineObserver? {
        guard enabled else { return nil }
        return { @Sendable [self] e in self.event(e) }
    }

    func event(_ e: PipelineEvent) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let line: String
        switch e.masked {
        case .started(let stage, let detail), .progress(let stage, let detail):
            // (Overwritten in place by the stage's next line.)
            line = "\u{1B}[2K\r\(stage.rawValue) … \(detail)"
            FileHandle.standardError.write(Data(line.utf8))
            return
        case .finished(let stage, let detail, let seconds, let items):
            let rate = items.flatMap { n in seconds > 0.01 ? "  (\(ProgressRenderer.compact(Double(n) / seconds))/s)" : nil } ?? ""
            line = "\u{1B}[2K\r\(stage.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(String(format: "%6.2fs", seconds))  \(detail)\(rate)\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }
}
