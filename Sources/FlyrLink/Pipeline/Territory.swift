/// The campaign's area: buildings that intersect it and addresses inside it are in the run.
package struct Territory {
    package var footprint: Footprint  // EPSG:4326
    package var source: String

    static func read(_ spec: SourceSpec) throws(InputError) -> Territory {
        let table = try GDALSourceReader.read(spec, role: .territory, mapping: FieldMapping())
        var polygons: [Polygon] = []
        for record in table.records {
            if case .polygons(let footprint)? = record.geometry {
                polygons += footprint.polygons.compactMap(Ingest.closedPolygon)
            } else {
                let what: String
                switch record.geometry {
                case nil: what = record.geometryError ?? "no geometry"
                case .empty(let t)?: what = "an empty \(t)"
                case .point?, .multiPoint?: what = "a point"
                case .other(let t)?: what = "a \(t)"
                case .polygons?: what = "a polygon"
                }
                throw InputError("territory: feature \(record.ordinal) of \(spec.description) is \(what); a territory must be polygons")
            }
        }
        guard !polygons.isEmpty else { throw InputError("territory: \(spec.description) has no polygon") }
        let sample = polygons.flatMap(\.shell)
        let (transformer, _, _) = try Ingest.transformer(for: table, sample: sample)
        for i in polygons.indices {
            for r in polygons[i].rings.indices { transformer.forward(&polygons[i].rings[r]) }
        }
        guard polygons.allSatisfy({ $0.rings.allSatisfy { $0.allSatisfy(Ingest.inRange) } }) else {
            throw InputError("territory: \(spec.description) has coordinates outside the valid range of its CRS")
        }
        return Territory(footprint: Footprint(polygons: polygons), source: spec.description)
    }
}
