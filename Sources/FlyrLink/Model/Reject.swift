/// An input row that could not be used, and why. Written to rejects.csv; the run goes on.
public struct Reject: Sendable, Hashable, Codable {
    public var layer: String
    public var sourceRow: Int
    public var id: String?
    public var reason: String

    public init(layer: String, sourceRow: Int, id: String?, reason: String) {
        self.layer = layer
        self.sourceRow = sourceRow
        self.id = id
        self.reason = reason
    }
}
