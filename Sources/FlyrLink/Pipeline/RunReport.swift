/// report.json. Everything but `run` (wall times, thread count) is the same for the same inputs
/// and options, so reports can be compared byte for byte once `run` is set aside.
public struct RunReport: Sendable, Codable {
    public struct Input: Sendable, Codable {
        public var source: String
        public var reader: String
        public var layer: String
        public var crs: String
        public var crsAssumed: Bool
        public var attributeFilter: String?
        public var fields: [String: String]
        public var featuresRead: Int
        public var accepted: Int
        public var rejected: Int
        public var repaired: Int?
        public var generatedIds: Int
        public var bytes: Int?
        public var sha256: String?
        public var parquet: ParquetReadReport?
    }

    public struct Counts: Sendable, Codable {
        public var addresses: Int = 0
        public var linked: Int = 0
        public var unlinked: Int = 0
        public var rejected: Int = 0
        public var outsideTerritory: Int = 0
        public var byMethod: [String: Int] = [:]
        public var unlinkedByReason: [String: Int] = [:]
        public var buildings: Int = 0
        public var buildingsRejected: Int = 0
        public var buildingsOutsideTerritory: Int = 0
        public var buildingsWithAddresses: Int = 0
        public var buildingsRepaired: Int = 0
        public var accessoryBuildings: Int = 0
        public var townhomeRows: Int = 0
        public var units: Int = 0

        package init() {}
    }

    public struct Band: Sendable, Codable {
        public var band: String
        public var links: Int

        package init(band: String, links: Int) {
            self.band = band
            self.links = links
        }
    }

    public struct Run: Sendable, Codable {
        public var threads: Int
        public var secondsByStage: [String: Double]
        public var secondsTotal: Double

        package init(threads: Int, secondsByStage: [String: Double], secondsTotal: Double) {
            self.threads = threads
            self.secondsByStage = secondsByStage
            self.secondsTotal = secondsTotal
        }
    }

    public var tool = "flyr-link"
    public var version = FlyrLinkVersion.string
    public var campaignID: String
    public var inputs: [String: Input] = [:]
    public var territory: String?
    public var metricFrame: String
    public var options: [String: String]
    public var counts = Counts()
    public var confidenceHistogram: [Band] = []
    /// What looks like a mistake (`RunWarnings`), in a fixed order; empty when nothing does.
    public var warnings: [RunWarning] = []
    public var run: Run
}

extension RunReport {
    package init(campaignID: String, metricFrame: String, options: [String: String], run: Run) {
        self.campaignID = campaignID
        self.metricFrame = metricFrame
        self.options = options
        self.run = run
    }
}

public enum FlyrLinkVersion {
    public static let string = "0.1.0"
}
