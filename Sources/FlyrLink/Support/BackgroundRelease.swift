import Foundation

/// Frees large structures on another thread (the next stage need not wait), then hands the freed
/// pages back, or they stay resident beside the next stage's freshly mapped arrays.
package enum BackgroundRelease {
    package static func dropAndTrim<T>(_ value: consuming T) {
        let box = UncheckedBox(Holder(value))
        DispatchQueue.global(qos: .utility).async {
            box.value.value = nil
            HeapTrim.returnFreedMemory()
        }
    }

    private final class Holder<T> {
        var value: T?
        init(_ value: consuming T) { self.value = value }
    }
}
