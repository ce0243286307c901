import Foundation

/// What the report says of the inputs once ingested: each layer's source, CRS and rejects, and the
/// territory. Small, so a run keeps it to the end, long after the layers themselves are freed.
package struct InputSources {
    /// One layer's; `rejects`: the ingest's, in row order.
    package struct Layer {
        package var source: LinkPipeline.SourceSummary
        package var crs: String
        package var crsAssumed: Bool
        package var generatedIDs: Int
        package var rejects: [Reject]

        init<Row, Geometry>(_ ingested: Ingest.Result<Row, Geometry>, source: LinkPipeline.SourceSummary) {
            self.source = source
            crs = ingested.crs
            crsAssumed = ingested.crsAssumed
            generatedIDs = ingested.generatedIDs
            rejects = ingested.rejects
        }
    }

    package var buildings: Layer
    package var addresses: Layer
    package var territory: Territory?
}

extension LinkPipeline {
    /// The report's inputs: each layer's source, with how many of its features were accepted
    /// (`buildings`, `addresses`), rejected and repaired.
    package func inputReports(_ sources: InputSources, _ account: FrameAccount, buildings: Int, addresses: Int) -> [String: RunReport.Input] {
        let b = sources.buildings, a = sources.addresses
        return [
            "buildings": inputReport(b.source, b.crs, b.crsAssumed, accepted: buildings, rejected: account.buildingRejects.count,
                                     repaired: account.repaired, generated: b.generatedIDs),
            "addresses": inputReport(a.source, a.crs, a.crsAssumed, accepted: addresses, rejected: a.rejects.count, repaired: nil,
                                     generated: a.generatedIDs),
        ]
    }

    package func inputReport(_ t: SourceSummary, _ crs: String, _ assumed: Bool, accepted: Int, rejected: Int, repaired: Int?, generated: Int) -> RunReport.Input {
        let path = t.spec.location
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let isFile = (attrs?[.type] as? FileAttributeType) == .typeRegular
        return RunReport.Input(source: PostgresTarget.redacted(t.spec.description), reader: t.reader, layer: t.layerName,
                               crs: CRSInfo.authorityName(crs) ?? (crs.count > 80 ? String(crs.prefix(80)) + "…" : crs),
                               crsAssumed: assumed, attributeFilter: t.attributeFilter, fields: t.resolvedFields,
                               featuresRead: t.featuresRead, accepted: accepted, rejected: rejected, repaired: repaired,
                               generatedIds: generated, bytes: isFile ? (attrs?[.size] as? Int) : nil,
                               sha256: isFile ? SHA256.fingerprint(path) : nil, parquet: t.parquet)
    }

    /// What lies outside the territory: dropped by the frame stage, or in row groups its box
    /// skipped (GeoParquet).
    package static func outside(_ sources: InputSources, _ account: FrameAccount) -> (addresses: Int, buildings: Int) {
        (account.outsideAddresses + (sources.addresses.source.parquet?.rowsSkippedByBBox ?? 0),
         account.outsideBuildings + (sources.buildings.source.parquet?.rowsSkippedByBBox ?? 0))
    }
}
