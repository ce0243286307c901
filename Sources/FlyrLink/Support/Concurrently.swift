import Foundation

/// Two pieces of work at once, one thread each (the two layers of a run are read, and finished,
/// side by side). Both run to the end; the first one's error wins, then the second's.
enum Concurrently {
    static func both<A, B>(_ first: () throws(InputError) -> A, _ second: () throws(InputError) -> B) throws(InputError) -> (A, B) {
        let results = Results<A, B>()
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let work = UncheckedBox((first, second))
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    if i == 0 {
                        results.first = Result { () throws(InputError) in try work.value.0() }
                    } else {
                        results.second = Result { () throws(InputError) in try work.value.1() }
                    }
                }
            }
        }
        return (try results.first!.get(), try results.second!.get())
    }

    /// Each slot is written by one thread, read after both are done.
    private final class Results<A, B>: @unchecked Sendable {
        var first: Result<A, InputError>?
        var second: Result<B, InputError>?
    }
}
