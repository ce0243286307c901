/// One of `count` shares of a GeoParquet source's row groups, numbered through the dataset (its
/// files in path order): share K of N reads the K-th of N runs of consecutive groups. A plan made on
/// a cluster reads its sources in shares, one Spark task a share (docs/distributed.md, "The plan
/// from shares"); every row is in exactly one share, and keeps the number it has in the whole
/// source. Consecutive groups, not every N-th: a source sorted in space (a Hilbert-ordered file,
/// Overture's partitions) then gives each share a compact part of the territory, so that its
/// reads are runs of the file and the cells it reports are its own, not every cell of the run.
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
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= OptionLimits.shares, k >= 0, k < n else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    /// The groups of a file in this share: the file's `groups` groups are numbered from `first`
    /// among the dataset's `total`.
    func groups(first: Int, count groups: Int, total: Int) -> [Int] {
        let lower = index * total / count, upper = (index + 1) * total / count
        return (0..<groups).filter { (lower..<upper).contains(first + $0) }
    }
}
