import Foundation

/// Everything a run needs, from the command line or a pipeline file.
public struct RunOptions: Sendable, Codable {
    public enum UnitsMode: String, Sendable, Codable, CaseIterable {
        case split
        case none
    }

    public enum OutputSelection: String, Sendable, Codable, CaseIterable {
        case all
        /// links.csv alone (plus report.json and rejects.csv): the benchmark's "link and write a table".
        case links
    }

    /// Who reads GeoParquet: GDAL's Parquet driver when present (auto), or forced either way.
    public enum ParquetReader: String, Sendable, Codable, CaseIterable {
        case auto
        case gdal
        case flyr
    }

    /// The unit of the buildings' height field; `height_m` is written in metres.
    public enum HeightUnit: String, Sendable, Codable, CaseIterable {
        case m
        case ft

        /// Metres per unit.
        public var metres: Double { self == .ft ? 0.3048 : 1 }
    }

    public var buildings: SourceSpec
    public var addresses: SourceSpec
    public var territory: SourceSpec?
    /// Where the outputs go (`--out`): a directory, a file (`.gpkg`, …) or a PostgreSQL URI.
    public var output: String
    /// How the outputs are laid out (`--format`; by default from `output`'s extension).
    public var format: OutputFormat = .dir
    /// Replace a look-alike of an output, any GeoPackage, or an evidence file of the user's (`--overwrite`; see `OutputTarget`).
    public var overwrite = false
    /// Write the output even when every feature of a layer was rejected (`--allow-empty`; see `EmptyLayerCheck`).
    public var allowEmpty = false
    /// The campaign the links belong to; a UUID. Nil: derived from the input names (see `resolvedCampaignID`).
    public var campaignID: String?
    public var link = LinkOptions()
    public var units: UnitsMode = .split
    public var threads: Int = RunOptions.defaultThreads
    /// `.links`: links.csv, rejects.csv and report.json only; the run then keeps no lon/lat footprints,
    /// and of the address fields only those linking reads (`AddressField.linking`).
    public var only: OutputSelection = .all
    /// Write report.html beside report.json (`--no-html`: not).
    public var writeHTML = true
    public var fields = FieldMapping()
    public var parquetReader: ParquetReader = .auto
    /// How long and how slowly a remote source's reads may go (nil: the defaults, as in a plan
    /// without them).
    public var remoteLimits: RemoteReadLimits?
    public var remote: RemoteReadLimits { remoteLimits ?? RemoteReadLimits() }
    /// `--height-unit`; nil: metres, and the run warns when the heights look like feet (`RunWarnings`).
    public var heightUnit: HeightUnit?
    /// Snapshots: the previous version's links (address id → building id); see StickyLinks.
    public var previousLinks: [String: String] = [:]
    /// A link model file to use instead of the compiled-in one (`LinkModel.standard`).
    public var linkModelPath: String?
    /// Where to write every candidate's features and score as CSV (for fitting a link model).
    public var evidencePath: String?

    /// Other locations the run reads, never written over (a distributed run's decisions). Not in
    /// plan.json: the command that reads them names them.
    public var alsoReads: [String] = []

    /// The stored properties in their order; plan.json keeps the key `outputDirectory`.
    enum CodingKeys: String, CodingKey {
        case buildings, addresses, territory, output = "outputDirectory", format, overwrite, allowEmpty, campaignID, link, units, threads
        case only, writeHTML, fields, parquetReader, remoteLimits, heightUnit, previousLinks, linkModelPath, evidencePath
    }

    public static var defaultThreads: Int { max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) }

    public init(buildings: SourceSpec, addresses: SourceSpec, output: String) {
        self.buildings = buildings
        self.addresses = addresses
        self.output = output
        format = OutputFormat.inferred(from: output)
    }

    /// The given campaign id, or a UUIDv5 of the inputs' canonical locations (absolute paths with
    /// symbolic links resolved, and layers), so runs of the same inputs share an id without the
    /// user inventing one, however the paths were spelled (a PostGIS re-run replaces its campaign).
    public var resolvedCampaignID: String {
        if let c = campaignID { return c.lowercased() }
        return UUIDv5.make(parts: ["campaign", buildings.canonicalDescription, addresses.canonicalDescription,
                                   territory?.canonicalDescription ?? ""])
    }

    /// Whether the campaign id was derived (`resolvedCampaignID`) rather than given.
    public var campaignIDIsDerived: Bool { campaignID == nil }

    public func validate() throws(InputError) {
        if let c = campaignID, !UUIDv5.isValid(c) { throw InputError("--campaign '\(c)' is not a UUID") }
        if let why = OptionLimits.distanceProblem("--max-distance (max_distance)", link.maxDistance) { throw InputError(why) }
        if let why = OptionLimits.distanceProblem("--sticky-margin (sticky_margin)", link.stickyMargin) { throw InputError(why) }
        if let why = format.problem(out: output) { throw InputError(why) }
        if let why = OptionLimits.countProblem("--threads (threads)", threads, maximum: OptionLimits.threads) { throw InputError(why) }
        try remote.validate()
        try fields.validate()
    }
}

extension RunOptions {
    /// The sources and the link model named by canonical absolute paths (see `SourceSpec.resolved`).
    package var resolvingPaths: RunOptions {
        var r = self
        r.buildings = buildings.resolved
        r.addresses = addresses.resolved
        r.territory = territory?.resolved
        r.linkModelPath = linkModelPath.map { SourceSpec(location: $0).resolved.location }
        return r
    }
}
