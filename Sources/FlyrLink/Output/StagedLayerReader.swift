internal import CLateBound
import Foundation

/// Reads back a layer a run staged as GeoJSON or CSV (`RunWriter`'s directory files) as the
/// declared columns of `OutputLayer`: the GeoPackage, FlatGeobuf and GeoParquet outputs are
/// conversions of those files, so they hold exactly the values (and the 7-decimal coordinates)
/// the GeoJSON and CSV outputs hold. GeoJSON through GDAL; CSV by the project's RFC 4180 reader,
/// since GDAL's turns a quoted CR LF into LF (an id would no longer be the one in the other tables).
struct StagedLayerReader {
    let layer: OutputLayer
    let path: String

    /// A source field per declared column (-1: the file has none, as a column of nulls only
    /// GeoJSON may omit), and whether it was read as text (CSV; a GeoJSON column of nulls).
    private struct Plan {
        let index: [Int32]
        let isText: [Bool]
    }

    /// Visits the rows in the file's order with their values (declared columns' order) and
    /// geometry (none from a CSV file); `geometry` is the feature's own, valid inside `body` only
    /// (steal it to keep it).
    func forEachRow(_ body: ([OutputValue?], OGRFeatureH?) throws -> Void) throws {
        if path.hasSuffix(".csv") { return try forEachCSVRow { try body($0, nil) } }
        // Dates stay text (GDAL's GeoJSON reader would type a column of date-like strings).
        let dataset = try GDALVectorDataset(path: path, openOptions: path.hasSuffix(".geojson") ? ["DATE_AS_STRING=YES"] : [])
        let source = try dataset.layer(named: nil)
        let plan = makePlan(source)
        var values = [OutputValue?](repeating: nil, count: layer.columns.count)
        try source.forEachFeature { f in
            for (k, column) in layer.columns.enumerated() {
                values[k] = try value(f.handle, plan.index[k], asText: plan.isText[k], kind: column.kind, column: column.name)
            }
            try body(values, f.handle)
        }
    }

    /// A staged CSV table's rows: the header names the columns; an empty field is null.
    private func forEachCSVRow(_ body: ([OutputValue?]) throws -> Void) throws {
        let file = try MappedFile(path: path)
        var index: [Int]?
        var values = [OutputValue?](repeating: nil, count: layer.columns.count)
        try CSVRows.forEachRow(file.bytes) { row in
            guard let index else {
                let header = (0..<row.count).map { row[$0] }
                index = layer.columns.map { header.firstIndex(of: $0.name) ?? -1 }
                return
            }
            for (k, column) in layer.columns.enumerated() {
                let i = index[k]
                values[k] = i >= 0 && i < row.count ? try typed(row[i], kind: column.kind, column: column.name) : nil
            }
            try body(values)
        }
    }

    private func makePlan(_ source: GDALVectorLayer) -> Plan {
        let defn = gdal.OGR_L_GetLayerDefn(source.handle)
        var index: [Int32] = [], isText: [Bool] = []
        for column in layer.columns {
            let i = defn.map { d in
                (0..<gdal.OGR_FD_GetFieldCount(d)).first { gdal.OGR_Fld_GetNameRef(gdal.OGR_FD_GetFieldDefn(d, $0)).map { String(cString: $0) } == column.name } ?? -1
            } ?? -1
            index.append(i)
            isText.append(i >= 0 && gdal.OGR_Fld_GetType(gdal.OGR_FD_GetFieldDefn(defn, i)) == OFTString)
        }
        return Plan(index: index, isText: isText)
    }

    private func value(_ f: OGRFeatureH, _ i: Int32, asText: Bool, kind: OutputColumn.Kind, column: String) throws -> OutputValue? {
        guard i >= 0, gdal.OGR_F_IsFieldSetAndNotNull(f, i) != 0 else { return nil }
        if kind == .text || asText {
            let s = gdal.OGR_F_GetFieldAsString(f, i).map { String(cString: $0) } ?? ""
            return kind == .text ? .text(s) : try typed(s, kind: kind, column: column)
        }
        switch kind {
        case .integer: return .integer(Int64(gdal.OGR_F_GetFieldAsInteger64(f, i)))
        case .real: return .real(gdal.OGR_F_GetFieldAsDouble(f, i))
        case .boolean: return .boolean(gdal.OGR_F_GetFieldAsInteger64(f, i) != 0)
        case .text: return nil
        }
    }

    /// A CSV cell (or a GeoJSON column of nulls) as the declared type; empty is null.
    private func typed(_ s: String, kind: OutputColumn.Kind, column: String) throws -> OutputValue? {
        if s.isEmpty { return nil }
        switch kind {
        case .text: return .text(s)
        case .integer: if let v = Int64(s) { return .integer(v) }
        case .real: if let v = Double(s) { return .real(v) }
        case .boolean: if s == "true" || s == "false" { return .boolean(s == "true") }
        }
        throw OutputError("\(path): '\(s)' in column \(column) is not of its type")
    }
}
