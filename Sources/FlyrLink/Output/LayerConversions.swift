import Foundation

/// The geometry layers converted side by side (FlatGeobuf and GeoParquet: a file each, so
/// independent), up to `threads` at a time, the largest first. Each file's bytes do not depend
/// on which thread wrote it. Errors: the first layer's (in `OutputLayer.geometryLayers` order) wins.
enum LayerConversions {
    /// Largest first (features.geojson holds the most bytes), so the others fill the second thread
    /// meanwhile.
    static let order = [OutputLayer.features, .addresses, .buildings, .units]

    static func run(threads: Int, _ convert: @escaping @Sendable (OutputLayer) throws -> Void) throws {
        let state = State()
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, order.count))) { _ in
            while let k = state.next() {
                do { try convert(order[k]) } catch { state.fail(k, error) }
            }
        }
        if let (_, error) = state.failures.min(by: { $0.0 < $1.0 }) { throw error }
    }

    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var taken = 0
        /// (position in `OutputLayer.geometryLayers`, error)
        private(set) var failures: [(Int, Error)] = []

        func next() -> Int? {
            lock.withLock {
                guard taken < order.count else { return nil }
                taken += 1
                return taken - 1
            }
        }

        func fail(_ k: Int, _ error: Error) {
            let position = OutputLayer.geometryLayers.firstIndex { $0.name == order[k].name } ?? k
            lock.withLock { failures.append((position, error)) }
        }
    }
}
