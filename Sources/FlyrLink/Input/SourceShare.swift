/// One of `count` shares of a GeoParquet source's row groups, numbered through the dataset (its
/// files in path order): the groups `g` with `g % count == index`. A plan made on a cluster reads
/// its sources in shares, one Spark task a share (docs/distributed.md, "The plan from shares");
/// every row is in exactly one share, and keeps the number it has in the whole source.
public struct SourceShare: Sendable, Codable, Equatable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// "K/N", as the command line takes it.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 0, k < n else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The groups of a file in this share, the dataset's groups before it numbering `first`.
    func groups(first: Int, count groups: Int) -> [Int] {
        (0..<groups).filter { (first + $0) % count == index }
    }
}
