/// The named stages of a run, in order.
public enum PipelineStage: String, Sendable, CaseIterable {
    case read
    case ingest
    case index
    case match
    case split
    case write
}

/// Progress as events; the CLI decides whether and how to show them (only on a terminal).
public enum PipelineEvent: Sendable {
    case started(PipelineStage, detail: String)
    case finished(PipelineStage, detail: String, seconds: Double)
}

public typealias PipelineObserver = @Sendable (PipelineEvent) -> Void
