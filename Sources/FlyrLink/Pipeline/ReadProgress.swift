import Foundation

/// The read is a run's longest stage: the features read so far, told to the observer as the
/// batches reach the ingest (both layers are read at once, on two threads), at most four
/// times a second. Only made when someone observes (the CLI on a terminal).
final class ReadProgress: @unchecked Sendable {
    private let observer: PipelineObserver
    private let lock = NSLock()
    private let start = Date()
    private var last = Date.distantPast
    private var buildings = 0, addresses = 0

    init(observer: @escaping PipelineObserver) { self.observer = observer }

    func add(buildings n: Int) { add(n, 0) }
    func add(addresses n: Int) { add(0, n) }

    private func add(_ b: Int, _ a: Int) {
        lock.lock()
        buildings += b
        addresses += a
        let now = Date()
        guard now.timeIntervalSince(last) >= 0.25 else { lock.unlock(); return }
        last = now
        let (nb, na) = (buildings, addresses), seconds = now.timeIntervalSince(start)
        lock.unlock()
        let rate = seconds > 0.01 ? Int((Double(nb + na) / seconds).rounded()) : 0
        observer(.progress(.read, detail: "\(nb) buildings, \(na) addresses read (\(rate) features/s)"))
    }
}
