#if DEBUG
import Synchronization

/// What the per-candidate and per-address work reads, counted in debug builds only: a test that
/// is not timed proves the cost linear in the number of addresses at one place.
enum WorkCount {
    /// Other addresses' records read for a candidate's features (claimants, seers, sorted-list probes).
    static let otherAddresses = Atomic<Int>(0)
    /// Points visited by the street sides' neighbour searches.
    static let streetNeighbours = Atomic<Int>(0)

    static func reset() {
        otherAddresses.store(0, ordering: .relaxed)
        streetNeighbours.store(0, ordering: .relaxed)
    }
}
#endif
