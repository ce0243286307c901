extension LinkPipeline {
    /// What the report keeps of a source table once its records are ingested.
    struct SourceSummary: Sendable, Codable {
        var spec: SourceSpec
        var reader: String
        var layerName: String
        var resolvedFields: [String: String]
        var attributeFilter: String?
        var featuresRead: Int
        var parquet: ParquetReadReport?
        var fields: [SourceField]
        var readsInParts: Bool

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

        /// A layer read from a tile's pack (`TilePack`): the source it was made from.
        init(_ pack: TilePack.Header, spec: SourceSpec) {
            self.spec = spec
            reader = "flyr-link plan's tile pack"
            layerName = pack.layer.rawValue
            resolvedFields = [:]
            attributeFilter = nil
            featuresRead = pack.rows
            parquet = nil
            fields = []
            readsInParts = true
        }
    }
}
