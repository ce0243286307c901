import Foundation

/// Frees large intermediate structures on another thread, then hands the freed pages back to the
/// system. A million footprints take a good part of a second to free one object at a time (the
/// next stage need not wait for that), and what they held would otherwise stay resident beside
/// the next stage's new arrays (which glibc maps afresh): at 10M buildings, a gigabyte of peak.
enum BackgroundRelease {
    static func dropAndTrim<T>(_ value: consuming T) {
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
