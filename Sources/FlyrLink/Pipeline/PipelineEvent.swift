/// The named stages of a run, in order.
public enum PipelineStage: String, Sendable, CaseIterable {
    case read
    case ingest
    case index
    case match
    case split
    /// Links ordered and indexed, inputs fingerprinted, the report's counts.
    case assemble
    case write
    /// report.html drawn (part of writing, timed on its own).
    case report
}

/// Progress as events; the CLI decides whether and how to show them (only on a terminal).
public enum PipelineEvent: Sendable {
    case started(PipelineStage, detail: String)
    /// `items`: how many features, addresses or footprints the stage went through, for a rate.
    case finished(PipelineStage, detail: String, seconds: Double, items: Int? = nil)
}

public typealias PipelineObserver = @Sendable (PipelineEvent) -> Void
