extension LinkPipeline {
    /// What the report keeps of a source table once its records are ingested.
    package struct SourceSummary: Sendable, Codable {
        package var spec: SourceSpec
        var reader: String
        var layerName: String
        var resolvedFields: [String: String]
        var attributeFilter: String?
        package var featuresRead: Int
        package var parquet: ParquetReadReport?
        var fields: [SourceField]
        package var readsInParts: Bool

        init(_ t: SourceTable) {
            spec = t.spec
            reader = t.reader
            layerName = t.layerName
            resolvedFields = t.resolvedFields
            attributeFilter = t.attributeFilter
            featuresRead = t.recordCount
            parquet = t.parquet
            fields = t.fields
            readsInParts = t.readsInParts
        }

        package init(spec: SourceSpec, reader: String, layerName: String, featuresRead: Int, readsInParts: Bool) {
            self.spec = spec
            self.reader = reader
            self.layerName = layerName
            resolvedFields = [:]
            attributeFilter = nil
            self.featuresRead = featuresRead
            parquet = nil
            fields = []
            self.readsInParts = readsInParts
        }
    }
}
