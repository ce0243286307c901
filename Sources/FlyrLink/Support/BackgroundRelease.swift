import Foundation

/// Frees large intermediate structures on another thread. A million footprints and candidate
/// lists take a good part of a second to free one object at a time; the run's next stage need
/// not wait for that.
enum BackgroundRelease {
    static func drop<T>(_ value: consuming T) {
        let box = UncheckedBox(value)
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(box) {} }
    }
}
