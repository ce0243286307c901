/// The columns flyr-link writes in each campaign table, and the check that tables which existed
/// before flyr-link (e.g. the app's own `campaign_addresses`) can take them: compatible types,
/// missing columns added (nullable), no NOT NULL column left without a value.
enum PGColumnKind: Sendable {
    case text, uuid, double, int, bool, multiPolygon, point

    var sqlType: String {
        switch self {
        case .text: "text"
        case .uuid: "uuid"
        case .double: "double precision"
        case .int: "integer"
        case .bool: "boolean"
        case .multiPolygon: "geometry(MultiPolygon,4326)"
        case .point: "geometry(Point,4326)"
        }
    }

    /// Whether a column of `type` (as `format_type` prints it) takes this kind's values.
    func accepts(_ type: String) -> Bool {
        var t = type
        if let dot = t.firstIndex(of: "."), t[t.index(after: dot)...].hasPrefix("geometry") { t = String(t[t.index(after: dot)...]) }
        switch self {
        case .text: return t == "text" || t.hasPrefix("character varying") || t == "uuid"
        case .uuid: return t == "uuid" || t == "text" || t.hasPrefix("character varying")
        case .double: return t == "double precision" || t == "real" || t.hasPrefix("numeric")
        case .int: return t == "integer" || t == "bigint" || t == "smallint" || t.hasPrefix("numeric")
        case .bool: return t == "boolean"
        case .multiPolygon: return ["geometry", "geometry(MultiPolygon,4326)", "geometry(Geometry,4326)"].contains(t)
        case .point: return ["geometry", "geometry(Point,4326)", "geometry(Geometry,4326)"].contains(t)
        }
    }
}

struct PGTableSpec: Sendable {
    let name: String
    let columns: [(name: String, kind: PGColumnKind)]

    var columnList: String { columns.map(\.name).joined(separator: ", ") }
}

enum PGCampaignTables {
    static let buildings = PGTableSpec(name: "ref_buildings_gold", columns: [
        ("id", .text), ("gers_id", .text), ("source", .text), ("geom", .multiPolygon), ("height_m", .double),
        ("levels", .int), ("address_count", .int), ("is_townhome_row", .bool), ("units_count", .int),
    ])
    static let campaignBuildings = PGTableSpec(name: "campaign_buildings", columns: [
        ("campaign_id", .uuid), ("building_id", .text), ("ordinal", .int), ("address_count", .int),
        ("is_townhome_row", .bool), ("units_count", .int),
    ])
    static let addresses = PGTableSpec(name: "campaign_addresses", columns: [
        ("id", .text), ("campaign_id", .uuid), ("house_number", .text), ("street_name", .text), ("unit", .text),
        ("formatted", .text), ("locality", .text), ("region", .text), ("postal_code", .text), ("building_id", .text),
        ("unit_id", .text), ("match_method", .text), ("confidence", .double), ("distance_m", .double),
        ("unlinked_reason", .text), ("ordinal", .int), ("geom", .point),
    ])
    static let links = PGTableSpec(name: "building_address_links", columns: [
        ("id", .uuid), ("campaign_id", .uuid), ("building_id", .text), ("address_id", .text), ("unit_id", .text),
        ("match_method", .text), ("is_primary", .bool), ("confidence_score", .double), ("distance_m", .double),
    ])
    static let units = PGTableSpec(name: "building_units", columns: [
        ("id", .text), ("building_id", .text), ("address_id", .text), ("unit_index", .int), ("campaign_id", .uuid),
        ("geom", .multiPolygon),
    ])
    static let all = [buildings, campaignBuildings, addresses, links, units]

    /// Checks every table against its spec; adds the columns a pre-existing table lacks.
    static func conform(_ db: PGConnection, tables: [PGTableSpec] = all) throws(PostgresError) {
        for table in tables {
            let rows = try db.execute("""
                SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                       a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> ''
                FROM pg_attribute a
                WHERE a.attrelid = to_regclass(format('%I.%I', current_schema(), $1::text)) AND a.attnum > 0 AND NOT a.attisdropped
                """, [table.name])
            guard !rows.isEmpty else {
                throw PostgresError(.incompatibleSchema, "table \(table.name) is missing from schema \(try db.scalar("SELECT current_schema()") ?? "?") after the migrations")
            }
            var existing: [String: (type: String, notNull: Bool, hasDefault: Bool)] = [:]
            for r in rows {
                guard let name = r[0], let type = r[1] else { continue }
                existing[name] = (type, r[2] == "t", r[3] == "t")
            }
            var missing: [(name: String, kind: PGColumnKind)] = []
            for column in table.columns {
                guard let found = existing[column.name] else {
                    missing.append(column)
                    continue
                }
                if !column.kind.accepts(found.type) {
                    throw PostgresError(.incompatibleSchema,
                                        "table \(table.name) has column \(column.name) of type \(found.type), where flyr-link writes \(column.kind.sqlType)")
                }
            }
            let written = Set(table.columns.map(\.name))
            for (name, info) in existing.sorted(by: { $0.key < $1.key }) where !written.contains(name) && info.notNull && !info.hasDefault {
                throw PostgresError(.incompatibleSchema,
                                    "table \(table.name) has column \(name) NOT NULL without a default, which flyr-link does not write")
            }
            for column in missing {
                do {
                    try db.execute("ALTER TABLE \(table.name) ADD COLUMN IF NOT EXISTS \(column.name) \(column.kind.sqlType)")
                } catch {
                    throw error.context("table \(table.name) lacks column \(column.name)")
                }
            }
        }
    }
}
