/// Which columns feed each canonical field, resolved from the header as `GDALSourceReader` resolves
/// them from GDAL's field list: candidate names matched case-insensitively, and keys inside an
/// `other_tags` column (a file converted from OSM) for names that are not columns.
struct FlatGeobufFieldPlan {
    /// Per canonical field, its lookups in order of preference.
    var lookups: [[FlatGeobufFeatureDecoder.Lookup]] = []
    /// Per canonical field, the report's name for each lookup.
    var lookupNames: [[String]] = []
    var canonicalNames: [String] = []
    /// The columns whose values are read, in slot order.
    var wantedColumns: [Int] = []
    var tagsSlot: Int?

    init(header: FlatGeobufHeader, role: LayerRole, mapping: FieldMapping) throws(FlatGeobufProblem) {
        let fieldNames = (header.columns ?? []).map(\.name)
        let lowerNames = fieldNames.map { $0.lowercased() }
        let tagsColumn = lowerNames.firstIndex(of: "other_tags")
        var slotOfColumn: [Int: Int] = [:]
        func slot(_ column: Int) -> Int {
            if let s = slotOfColumn[column] { return s }
            wantedColumns.append(column)
            slotOfColumn[column] = wantedColumns.count - 1
            return wantedColumns.count - 1
        }
        for (canonical, names, overridden) in mapping.candidates(for: role) {
            var list: [FlatGeobufFeatureDecoder.Lookup] = []
            var listNames: [String] = []
            for (source, label) in FieldMapping.sources(of: names, columns: fieldNames, lowercased: lowerNames, hasTags: tagsColumn != nil) {
                switch source {
                case .column(let i): list.append(.column(slot(i)))
                case .tag(let key): list.append(.tag(key))
                }
                listNames.append(label)
            }
            if overridden && list.isEmpty {
                // GDAL's reader words this error; let it.
                throw .needsGDAL("field '\(names[0])' not found")
            }
            lookups.append(list)
            lookupNames.append(listNames)
            canonicalNames.append(canonical)
        }
        let needsTags = lookups.contains { $0.contains { if case .tag = $0 { return true } else { return false } } }
        if needsTags, let tagsColumn { tagsSlot = slot(tagsColumn) }
    }

    /// Canonical field → the lookup that supplied it most often (ties to the earlier), for the report.
    func resolved(hits: [[Int]]) -> [String: String] {
        var resolved: [String: String] = [:]
        for f in lookups.indices {
            if let best = FieldMapping.mostUsed(hits[f]) { resolved[canonicalNames[f]] = lookupNames[f][best] }
        }
        return resolved
    }
}
