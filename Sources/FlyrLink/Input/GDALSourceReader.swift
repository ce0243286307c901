import Foundation

/// Reads a source through GDAL/OGR into a `SourceTable`, with the role's defaults for OSM files
/// (`multipolygons` with `building` set for buildings, `points` with an `addr:housenumber` tag
/// for addresses) and CSV files (geometry from a WKT column or lon/lat columns).
enum GDALSourceReader {
    /// How one canonical field is looked up in a feature, first match with a value wins.
    private enum Lookup {
        case field(Int32)
        case tag(String)
        case osmID(wayField: Int32?, idField: Int32, kind: String)
    }

    static func read(_ spec: SourceSpec, role: LayerRole, mapping: FieldMapping, sink: RecordSink = RecordSink()) throws(InputError) -> SourceTable {
        let lower = (RemoteLocation(spec.location)?.pathForExtension ?? spec.location).lowercased()
        var openOptions: [String] = []
        if lower.hasSuffix(".csv") {
            openOptions = ["GEOM_POSSIBLE_NAMES=WKT,wkt,geometry,geom,the_geom", "X_POSSIBLE_NAMES=lon,longitude,lng,x",
                           "Y_POSSIBLE_NAMES=lat,latitude,y", "KEEP_GEOM_COLUMNS=NO"]
        }
        let dataset: GDALVectorDataset
        do {
            // GDAL's PostgreSQL driver takes `PG:`; a bare postgresql:// URI gets that prefix.
            let isURI = lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
            // URLs and S3 objects in other formats go through GDAL's /vsicurl/ and /vsis3/.
            let path = isURI ? "PG:" + spec.location : RemoteLocation(spec.location)?.gdalPath ?? spec.location
            dataset = try GDALVectorDataset(path: path, openOptions: openOptions)
        } catch {
            throw InputError("\(role.rawValue): \(error.message)")
        }
        let isOSM = dataset.driverName == "OSM"
        var layerName = spec.layer
        if layerName == nil, isOSM {
            layerName = role == .addresses ? "points" : "multipolygons"
        }
        let layer: GDALVectorLayer
        do {
            layer = try dataset.layer(named: layerName)
        } catch {
            throw InputError("\(role.rawValue): \(error.message)")
        }
        guard layer.hasGeometryField else {
            throw InputError("\(role.rawValue): \(spec.description) layer '\(layer.name)' has no geometry column")
        }
        let fieldNames = layer.fieldNames
        let lowerNames = fieldNames.map { $0.lowercased() }
        let tagsField = lowerNames.firstIndex(of: "other_tags").map { Int32($0) }

        var filter: String?
        if isOSM && role == .buildings && lowerNames.contains("building") {
            filter = "building IS NOT NULL"
        } else if isOSM && role == .addresses && tagsField != nil {
            filter = "other_tags LIKE '%\"addr:housenumber\"%'"
        }
        if let filter {
            do { try layer.setAttributeFilter(filter) } catch { throw InputError("\(role.rawValue): \(error.message)") }
        }

        // Resolve each canonical field to its lookups.
        var lookups: [[Lookup]] = []
        var lookupNames: [[String]] = []
        var canonicalNames: [String] = []
        for (canonical, names, overridden) in mapping.candidates(for: role) {
            var list: [Lookup] = []
            var listNames: [String] = []
            if isOSM && canonical == "id" && !overridden, let idIdx = lowerNames.firstIndex(of: "osm_id") {
                let way = lowerNames.firstIndex(of: "osm_way_id").map { Int32($0) }
                list.append(.osmID(wayField: way, idField: Int32(idIdx), kind: role == .addresses ? "node" : "relation"))
                listNames.append("osm_id/osm_way_id")
            }
            for (source, label) in FieldMapping.sources(of: names, columns: fieldNames, lowercased: lowerNames, hasTags: tagsField != nil) {
                switch source {
                case .column(let i): list.append(.field(Int32(i)))
                case .tag(let key): list.append(.tag(key))
                }
                listNames.append(label)
            }
            if overridden && list.isEmpty {
                throw InputError("\(role.rawValue): field '\(names[0])' (for \(canonical)) not found in \(spec.description); fields: \(fieldNames.joined(separator: ", "))")
            }
            lookups.append(list)
            lookupNames.append(listNames)
            canonicalNames.append(canonical)
        }
        // How often each lookup supplied the value: the report names the one that did most.
        var hits = lookups.map { [Int](repeating: 0, count: $0.count) }
        let needsTags = lookups.contains { $0.contains { if case .tag = $0 { return true } else { return false } } }

        if let n = layer.cheapFeatureCount { sink.reserveCapacity(n) }
        do {
            try layer.forEachFeature { feature in
                let tags = needsTags ? tagsField.flatMap { feature.string($0) }.map(OSMTags.parse) ?? [:] : [:]
                var values: [String?] = []
                values.reserveCapacity(lookups.count)
                for (f, list) in lookups.enumerated() {
                    var value: String?
                    for (k, lookup) in list.enumerated() {
                        switch lookup {
                        case .field(let i): value = feature.string(i)
                        case .tag(let key): value = tags[key]
                        case .osmID(let wayField, let idField, let kind):
                            if let wayField, let way = feature.string(wayField) {
                                value = "way/\(way)"
                            } else if let id = feature.string(idField) {
                                value = "\(kind)/\(id)"
                            }
                        }
                        if let v = value, !v.isEmpty {
                            hits[f][k] += 1
                            break
                        }
                        value = nil
                    }
                    values.append(value)
                }
                sink.append(SourceTable.Record(ordinal: feature.ordinal, values: values, wkb: feature.wkb()))
            }
        } catch let error as GDALError {
            throw InputError("\(role.rawValue): \(error.message)")
        } catch {
            throw InputError("\(role.rawValue): \(error)")
        }
        var resolved: [String: String] = [:]
        for f in lookups.indices {
            if let best = FieldMapping.mostUsed(hits[f]) { resolved[canonicalNames[f]] = lookupNames[f][best] }
        }
        let crs = layer.crsWKT
        var table = SourceTable(spec: spec, role: role, reader: "GDAL/\(dataset.driverName)", layerName: layer.name,
                                crsDefinition: crs, resolvedFields: resolved, attributeFilter: filter, records: sink.finish(),
                                recordCount: sink.count, crsIsFormatDefault: isFormatDefault(crs, driver: dataset.driverName))
        table.fields = layer.fields
        return table
    }

    /// GDAL's GeoJSON drivers give every layer WGS 84, whether the file says so or has no `crs`
    /// member (RFC 7946): such a CRS is the format's default, and the coordinates are judged as the
    /// built-in reader's are (`Ingest.sourceCRS`), not taken as longitude/latitude unseen.
    static func isFormatDefault(_ crs: String?, driver: String) -> Bool {
        guard ["GeoJSON", "GeoJSONSeq"].contains(driver), let crs else { return false }
        return CRSInfo.isWGS84(crs)
    }
}
