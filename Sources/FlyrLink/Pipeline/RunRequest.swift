/// A run as the user asks for it, every key optional and unchecked (flags over a pipeline file):
/// a request, not yet options; `options()` checks it and resolves it into the `RunOptions` a run reads.
public struct RunRequest: Sendable, Equatable {
    public var buildings: String?
    public var buildingsLayer: String?
    public var buildingsCRS: String?
    public var addresses: String?
    public var addressesLayer: String?
    public var addressesCRS: String?
    public var territory: String?
    public var territoryLayer: String?
    public var out: String?
    public var overwrite: Bool?
    /// dir, gpkg, fgb or parquet (`RunOptions.format`).
    public var format: String?
    public var allowEmpty: Bool?
    public var campaign: String?
    public var maxDistance: Double?
    public var units: String?
    public var threads: Int?
    public var only: String?
    /// report.html beside report.json (default true; `--no-html`, pipeline key `html = false`).
    public var html: Bool?
    public var matcher: String?
    public var parquetReader: String?
    /// `RemoteReadLimits`: seconds a remote read may take, the bytes a second it must keep up, over how many seconds.
    public var remoteTimeout: Int?
    public var remoteMinRate: Int?
    public var remoteRateWindow: Int?
    /// m or ft: the unit of the buildings' height field.
    public var heightUnit: String?
    /// A link model file in place of the compiled-in one (`benchmarks/link-model/fit.py` writes them).
    public var linkModel: String?
    /// Where to write every candidate's features and score (CSV), for fitting a model.
    public var writeEvidence: String?
    public var addressFields: [String: String] = [:]
    public var buildingFields: [String: String] = [:]

    public init() {}

    /// This request, with anything unset taken from `base`.
    public func merged(over base: RunRequest) -> RunRequest {
        var r = self
        r.buildings = buildings ?? base.buildings
        r.buildingsLayer = buildingsLayer ?? base.buildingsLayer
        r.buildingsCRS = buildingsCRS ?? base.buildingsCRS
        r.addresses = addresses ?? base.addresses
        r.addressesLayer = addressesLayer ?? base.addressesLayer
        r.addressesCRS = addressesCRS ?? base.addressesCRS
        r.territory = territory ?? base.territory
        r.territoryLayer = territoryLayer ?? base.territoryLayer
        r.out = out ?? base.out
        r.overwrite = overwrite ?? base.overwrite
        r.format = format ?? base.format
        r.allowEmpty = allowEmpty ?? base.allowEmpty
        r.campaign = campaign ?? base.campaign
        r.maxDistance = maxDistance ?? base.maxDistance
        r.units = units ?? base.units
        r.threads = threads ?? base.threads
        r.only = only ?? base.only
        r.html = html ?? base.html
        r.matcher = matcher ?? base.matcher
        r.parquetReader = parquetReader ?? base.parquetReader
        r.remoteTimeout = remoteTimeout ?? base.remoteTimeout
        r.remoteMinRate = remoteMinRate ?? base.remoteMinRate
        r.remoteRateWindow = remoteRateWindow ?? base.remoteRateWindow
        r.heightUnit = heightUnit ?? base.heightUnit
        r.linkModel = linkModel ?? base.linkModel
        r.writeEvidence = writeEvidence ?? base.writeEvidence
        r.addressFields = base.addressFields.merging(addressFields) { _, mine in mine }
        r.buildingFields = base.buildingFields.merging(buildingFields) { _, mine in mine }
        return r
    }

    public func options() throws(InputError) -> RunOptions {
        guard let buildings else { throw InputError("no buildings source: give --buildings or `buildings` in the pipeline file") }
        guard let addresses else { throw InputError("no addresses source: give --addresses or `addresses` in the pipeline file") }
        guard let out else { throw InputError("no output directory: give --out or `out` in the pipeline file") }
        var o = RunOptions(buildings: SourceSpec.parse(buildings, layer: buildingsLayer, crs: buildingsCRS),
                           addresses: SourceSpec.parse(addresses, layer: addressesLayer, crs: addressesCRS),
                           output: out)
        o.territory = territory.map { SourceSpec.parse($0, layer: territoryLayer) }
        o.campaignID = campaign
        o.overwrite = overwrite ?? false
        if let format {
            guard let f = OutputFormat(rawValue: format) else { throw InputError("format must be dir, gpkg, fgb or parquet, not '\(format)'") }
            o.format = f
        }
        o.allowEmpty = allowEmpty ?? false
        o.writeHTML = html ?? true
        if let maxDistance { o.link.maxDistance = maxDistance }
        if let units {
            guard let u = RunOptions.UnitsMode(rawValue: units) else { throw InputError("units must be split or none, not '\(units)'") }
            o.units = u
        }
        if let threads { o.threads = threads }
        if let only {
            guard let s = RunOptions.OutputSelection(rawValue: only) else { throw InputError("only must be links (or all), not '\(only)'") }
            o.only = s
        }
        if let matcher {
            guard let m = LinkOptions.Strategy(rawValue: matcher) else { throw InputError("matcher must be flyr or naive, not '\(matcher)'") }
            o.link.strategy = m
        }
        if let parquetReader {
            guard let p = RunOptions.ParquetReader(rawValue: parquetReader) else {
                throw InputError("parquet reader must be auto, gdal or flyr, not '\(parquetReader)'")
            }
            o.parquetReader = p
        }
        if let heightUnit {
            guard let u = RunOptions.HeightUnit(rawValue: heightUnit) else { throw InputError("height unit must be m or ft, not '\(heightUnit)'") }
            o.heightUnit = u
        }
        if remoteTimeout != nil || remoteMinRate != nil || remoteRateWindow != nil {
            var limits = RemoteReadLimits()
            limits.timeout = remoteTimeout ?? limits.timeout
            limits.minRate = remoteMinRate ?? limits.minRate
            limits.rateWindow = remoteRateWindow ?? limits.rateWindow
            o.remoteLimits = limits
        }
        o.linkModelPath = linkModel
        o.evidencePath = writeEvidence
        o.fields = FieldMapping(address: addressFields, building: buildingFields)
        try o.validate()
        return o
    }
}
