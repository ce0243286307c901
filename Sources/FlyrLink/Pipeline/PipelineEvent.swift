/// The named stages of a run, in order.
public enum PipelineStage: String, Sendable, CaseIterable {
    case read
    /// Rows checked, brought to lon/lat, named and put in id order.
    case ingest
    /// Footprints and points into the metric frame, footprints repaired, the territory applied.
    case frame
    case index
    case match
    case split
    /// Links ordered and indexed, inputs fingerprinted, the report's counts.
    case assemble
    /// report.html drawn (inside the write, timed on its own: it finishes first).
    case report
    case write
}

/// Progress as events; the CLI decides whether and how to show them (only on a terminal).
public enum PipelineEvent: Sendable {
    case started(PipelineStage, detail: String)
    /// `items`: how many features, addresses or footprints the stage went through, for a rate.
    case finished(PipelineStage, detail: String, seconds: Double, items: Int? = nil)
    /// Within a long stage (the read), how far it is: a few times a second at most.
    case progress(PipelineStage, detail: String)
}

public typealias PipelineObserver = @Sendable (PipelineEvent) -> Void
