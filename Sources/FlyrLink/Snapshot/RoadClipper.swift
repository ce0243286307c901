internal import CLateBound
import Foundation

/// Roads for a snapshot: the line features of a source, brought to EPSG:4326 and clipped to the
/// territory with OGR_G_Intersection, written as GeoJSON (one feature per line, 7 decimals) with
/// `id`, `class` and `name` properties.
enum RoadClipper {
    /// Writes the clipped roads to `path`; returns how many features were written.
    static func clip(_ spec: SourceSpec, territory: Footprint, to path: String) throws -> Int {
        let dataset: GDALVectorDataset
        do { dataset = try GDALVectorDataset(path: spec.location) } catch { throw InputError("roads: \(error.description)") }
        let layerName = spec.layer ?? (dataset.driverName == "OSM" ? "lines" : nil)
        let layer: GDALVectorLayer
        do { layer = try dataset.layer(named: layerName) } catch { throw InputError("roads: \(error.description)") }

        if dataset.driverName == "OSM", layerName == "lines" {
            do { try layer.setAttributeFilter("highway IS NOT NULL") } catch { throw InputError("roads: \(error.description)") }
        }

        let wgs84 = gdal.OSRNewSpatialReference(nil)!
        defer { gdal.OSRDestroySpatialReference(wgs84) }
        _ = gdal.OSRSetFromUserInput(wgs84, "EPSG:4326")
        gdal.OSRSetAxisMappingStrategy(wgs84, OAMS_TRADITIONAL_GIS_ORDER)

        var source: OGRSpatialReferenceH?
        if let crs = spec.crs {
            source = gdal.OSRNewSpatialReference(nil)
            guard gdal.OSRSetFromUserInput(source, crs) == OGRERR_NONE else {
                gdal.OSRDestroySpatialReference(source)
                throw InputError("roads: unknown CRS '\(crs)'")
            }
        } else if let own = gdal.OGR_L_GetSpatialRef(layer.handle) {
            source = gdal.OSRClone(own)
        }
        defer { if let source { gdal.OSRDestroySpatialReference(source) } }
        var transform: OGRCoordinateTransformationH?
        if let source {
            gdal.OSRSetAxisMappingStrategy(source, OAMS_TRADITIONAL_GIS_ORDER)
            if gdal.OSRIsSame(source, wgs84) == 0 {
                transform = gdal.OCTNewCoordinateTransformation(source, wgs84)
                guard transform != nil else { throw InputError("roads: cannot transform \(spec.description) to EPSG:4326") }
            }
        }
        defer { if let transform { gdal.OCTDestroyCoordinateTransformation(transform) } }

        let area = makeGeometry(territory)
        defer { gdal.OGR_G_DestroyGeometry(area) }
        if transform == nil {
            let box = territory.bbox
            gdal.OGR_L_SetSpatialFilterRect(layer.handle, box.minX, box.minY, box.maxX, box.maxY)
        }

        let out = try ByteWriter(path: path)
        out.write("{\"type\":\"FeatureCollection\",\"features\":[\n")
        var written = 0
        let idField = ["id", "gers_id", "osm_id"], classField = ["class", "highway", "subtype"], nameField = ["name"]
        try layer.forEachFeature { feature in
            guard let g = gdal.OGR_F_GetGeometryRef(feature.handle) else { return }
            let type = gdal.OGR_GT_Flatten(gdal.OGR_G_GetGeometryType(g))
            guard type == wkbLineString || type == wkbMultiLineString else { return }
            guard let geom = gdal.OGR_G_Clone(g) else { return }
            defer { gdal.OGR_G_DestroyGeometry(geom) }
            if let transform, gdal.OGR_G_Transform(geom, transform) != OGRERR_NONE { return }
            guard gdal.OGR_G_Intersects(geom, area) != 0, let clipped = gdal.OGR_G_Intersection(geom, area) else { return }
            defer { gdal.OGR_G_DestroyGeometry(clipped) }
            guard let lines = lineParts(clipped) else { return }
            defer { if lines != clipped { gdal.OGR_G_DestroyGeometry(lines) } }
            guard let json = geoJSON(lines) else { return }
            func field(_ names: [String]) -> String? {
                for n in names {
                    let i = gdal.OGR_F_GetFieldIndex(feature.handle, n)
                    if i >= 0, let v = feature.string(i), !v.isEmpty { return v }
                }
                return nil
            }
            var id = field(idField)
            if dataset.driverName == "OSM", let osm = id { id = "way/\(osm)" }
            if id == nil, let original = geoJSON(geom) { id = UUIDv5.make(parts: ["road", original]) }
            out.withBuffer { b in
                if written > 0 { b += Array(",\n".utf8) }
                b += Array("{\"type\":\"Feature\",\"id\":".utf8)
                JSONText.appendString(id ?? "", to: &b)
                b += Array(",\"geometry\":".utf8)
                b += Array(json.utf8)
                b += Array(",\"properties\":{\"id\":".utf8)
                JSONText.appendString(id ?? "", to: &b)
                b += Array(",\"class\":".utf8)
                GeoJSONWriter.appendValue(.text(field(classField)), to: &b)
                b += Array(",\"name\":".utf8)
                GeoJSONWriter.appendValue(.text(field(nameField)), to: &b)
                b += Array("}}".utf8)
            }
            written += 1
        }
        out.write("\n]}\n")
        try out.close()
        return written
    }

    /// The line parts of an intersection result (a collection may also hold points where a road
    /// only touches the territory); nil when there are none.
    static func lineParts(_ g: OGRGeometryH) -> OGRGeometryH? {
        let type = gdal.OGR_GT_Flatten(gdal.OGR_G_GetGeometryType(g))
        if gdal.OGR_G_IsEmpty(g) != 0 { return nil }
        if type == wkbLineString || type == wkbMultiLineString { return g }
        guard type == wkbGeometryCollection else { return nil }
        let multi = gdal.OGR_G_CreateGeometry(wkbMultiLineString)!
        for i in 0..<gdal.OGR_G_GetGeometryCount(g) {
            guard let part = gdal.OGR_G_GetGeometryRef(g, i) else { continue }
            let t = gdal.OGR_GT_Flatten(gdal.OGR_G_GetGeometryType(part))
            if t == wkbLineString {
                _ = gdal.OGR_G_AddGeometry(multi, part)
            } else if t == wkbMultiLineString {
                for j in 0..<gdal.OGR_G_GetGeometryCount(part) { _ = gdal.OGR_G_AddGeometry(multi, gdal.OGR_G_GetGeometryRef(part, j)) }
            }
        }
        if gdal.OGR_G_GetGeometryCount(multi) == 0 { gdal.OGR_G_DestroyGeometry(multi); return nil }
        return multi
    }

    static func geoJSON(_ g: OGRGeometryH) -> String? {
        let text = withCStringList(["COORDINATE_PRECISION=\(GeoJSONWriter.coordinateDecimals)"]) { list in
            gdal.OGR_G_ExportToJsonEx(g, list.map { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self) })
        }
        guard let text else { return nil }
        defer { gdal.VSIFree(text) }
        return String(cString: text)
    }

    /// The territory as an OGR MultiPolygon (lon/lat).
    static func makeGeometry(_ f: Footprint) -> OGRGeometryH {
        let multi = gdal.OGR_G_CreateGeometry(wkbMultiPolygon)!
        for poly in f.polygons {
            let p = gdal.OGR_G_CreateGeometry(wkbPolygon)!
            for ring in poly.rings {
                let r = gdal.OGR_G_CreateGeometry(wkbLinearRing)!
                for pt in ring { gdal.OGR_G_AddPoint_2D(r, pt.x, pt.y) }
                _ = gdal.OGR_G_AddGeometryDirectly(p, r)
            }
            _ = gdal.OGR_G_AddGeometryDirectly(multi, p)
        }
        return multi
    }
}
