import Foundation

extension LinkPipeline {
    /// The seconds each stage took, for the report.
    package final class Clock: @unchecked Sendable {
        var seconds: [String: Double] = [:]
        let start = Date()

        package init() {}
    }

    /// A stage under way: its start reported, its end reported by `finish` with what it made.
    package struct RunningStage {
        let stage: PipelineStage
        let clock: Clock
        let observer: PipelineObserver?
        let started = Date()

        /// `items`: how many things the stage went through, for the progress rate.
        package func finish<T>(_ value: consuming T, _ detail: String, items: Int? = nil) -> T {
            let seconds = Date().timeIntervalSince(started)
            clock.seconds[stage.rawValue, default: 0] += seconds
            observer?(.finished(stage, detail: detail, seconds: seconds, items: items))
            return value
        }
    }

    /// Stage `s` started. The pages the last stage freed are handed back first, or the new stage's
    /// arrays are mapped beside them.
    package func start(_ s: PipelineStage, _ clock: Clock, _ detail: String = "") -> RunningStage {
        HeapTrim.returnFreedMemory()
        observer?(.started(s, detail: detail))
        return RunningStage(stage: s, clock: clock, observer: observer)
    }

    /// Stage `s` as one body that hands back its value and the line it finished with.
    package func stage<T>(_ s: PipelineStage, _ clock: Clock, _ detail: String = "", items: (T) -> Int? = { _ in nil },
                  _ body: () throws -> (T, String)) rethrows -> T {
        let running = start(s, clock, detail)
        let (value, done) = try body()
        return running.finish(value, done, items: items(value))
    }
}
