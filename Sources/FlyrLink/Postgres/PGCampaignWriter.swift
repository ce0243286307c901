import Foundation

/// What a database write stored.
public struct PGWriteSummary: Sendable, Equatable {
    public var migrationsApplied: [String] = []
    public var buildings = 0
    public var addresses = 0
    public var links = 0
    public var units = 0
}

/// Writes a run into PostgreSQL/PostGIS, in one transaction:
///
///     BEGIN; check PostGIS; migrations; check the tables; lock the campaign;
///     DELETE the campaign's rows; COPY buildings (upserted), campaign_buildings, campaign_addresses,
///     building_address_links, building_units; COMMIT
///
/// Readers see the campaign's previous rows until COMMIT and the new ones after, never a mix; other
/// campaigns' rows are not touched. Buildings are shared reference data: `ref_buildings_gold` rows are
/// upserted by id (never deleted), while what is per campaign (membership, order, address_count,
/// units) lives in `campaign_buildings`, which `rpc_get_campaign_full_features` reads.
public enum PGCampaignWriter {
    public static func write(_ run: LinkRun, conninfo: String) throws(PostgresError) -> PGWriteSummary {
        try write(run, conninfo: conninfo, pauseAfterDelete: 0)
    }

    /// `pauseAfterDelete` holds the open transaction after the DELETE (tests use it to watch a
    /// concurrent reader while the old rows are deleted but not yet committed).
    static func write(_ run: LinkRun, conninfo: String, pauseAfterDelete: TimeInterval) throws(PostgresError) -> PGWriteSummary {
        let db = try PGConnection(conninfo)
        do {
            try db.execute("BEGIN")
            let summary = try writeInTransaction(run, db: db, pauseAfterDelete: pauseAfterDelete)
            _ = try step("committing") { () throws(PostgresError) in try db.execute("COMMIT") }
            return summary
        } catch {
            _ = try? db.execute("ROLLBACK")
            // Say whose rights fell short, and where.
            if error.kind == .permission { throw error.note("role \(db.userName), database \(db.databaseName)") }
            throw error
        }
    }

    private static func step<T>(_ what: String, _ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        do { return try body() } catch { throw error.context(what) }
    }

    private static func writeInTransaction(_ run: LinkRun, db: PGConnection, pauseAfterDelete: TimeInterval) throws(PostgresError) -> PGWriteSummary {
        var summary = PGWriteSummary()
        let hasPostGIS = try step("checking PostGIS") { () throws(PostgresError) in
            try db.scalar("SELECT count(*) FROM pg_extension WHERE extname = 'postgis'")
        }
        guard hasPostGIS == "1" else {
            throw PostgresError(.missingPostGIS,
                                "PostGIS is not installed in database \(db.databaseName): run CREATE EXTENSION postgis (as a role allowed to) first")
        }
        summary.migrationsApplied = try PGMigrations.apply(on: db)
        try PGCampaignTables.conform(db)

        let campaign = run.campaignID
        // One writer per campaign at a time: a second one waits here and then deletes what the first committed.
        try db.execute("SELECT pg_advisory_xact_lock(hashtext('flyr-link campaign ' || current_schema() || ' ' || $1))", [campaign])
        try step("deleting the campaign's previous rows") { () throws(PostgresError) in
            for table in [PGCampaignTables.links, PGCampaignTables.units, PGCampaignTables.addresses, PGCampaignTables.campaignBuildings] {
                try db.execute("DELETE FROM \(table.name) WHERE campaign_id = $1", [campaign])
            }
        }
        if pauseAfterDelete > 0 { Thread.sleep(forTimeInterval: pauseAfterDelete) }

        let unitCount = RunWriter.unitCounts(run)
        summary.buildings = try step("writing ref_buildings_gold") { () throws(PostgresError) in
            try copyBuildings(run, unitCount: unitCount, db: db)
        }
        try step("writing campaign_buildings") { () throws(PostgresError) in
            let copy = try db.copyIn("COPY \(PGCampaignTables.campaignBuildings.name) (\(PGCampaignTables.campaignBuildings.columnList)) FROM STDIN")
            for (i, b) in run.buildings.enumerated() {
                copy.text(campaign); copy.text(b.id); copy.int(i + 1); copy.int(run.linksOfBuilding(i).count)
                copy.bool(unitCount[i] > 0); copy.int(unitCount[i])
                copy.endRow()
            }
            try copy.finish()
        }
        summary.addresses = try step("writing campaign_addresses") { () throws(PostgresError) in
            let copy = try db.copyIn("COPY \(PGCampaignTables.addresses.name) (\(PGCampaignTables.addresses.columnList)) FROM STDIN")
            for (i, a) in run.addresses.enumerated() {
                let link = run.linkOfAddress[i].map { run.links[$0] }
                copy.text(a.id); copy.text(campaign)
                for field in AddressField.allCases where field != .id { copy.text(a[field]) }
                copy.text(link.map { run.buildings[$0.buildingIndex].id })
                copy.text(link?.unitIndex.map { run.units[$0].id })
                copy.text(link?.method.rawValue)
                copy.number(link?.confidence, decimals: 3)
                copy.number(link?.distance, decimals: 2)
                copy.text(run.unlinkedReason[i])
                copy.int(i + 1)
                guard let location = run.location(ofAddress: i) else { preconditionFailure("a run written to PostgreSQL keeps its points") }
                copy.point(location)
                copy.endRow()
            }
            return try copy.finish()
        }
        summary.links = try step("writing building_address_links") { () throws(PostgresError) in
            let copy = try db.copyIn("COPY \(PGCampaignTables.links.name) (\(PGCampaignTables.links.columnList)) FROM STDIN")
            for l in run.links {
                copy.text(run.linkID(l)); copy.text(campaign); copy.text(run.buildings[l.buildingIndex].id)
                copy.text(run.addresses[l.addressIndex].id); copy.text(l.unitIndex.map { run.units[$0].id })
                copy.text(l.method.rawValue); copy.bool(l.isPrimary)
                copy.number(l.confidence, decimals: 3); copy.number(l.distance, decimals: 2)
                copy.endRow()
            }
            return try copy.finish()
        }
        summary.units = try step("writing building_units") { () throws(PostgresError) in
            let copy = try db.copyIn("COPY \(PGCampaignTables.units.name) (\(PGCampaignTables.units.columnList)) FROM STDIN")
            for u in run.units {
                copy.text(u.id); copy.text(run.buildings[u.buildingIndex].id); copy.text(run.addresses[u.addressIndex].id)
                copy.int(u.unitIndex); copy.text(campaign); copy.multiPolygon(u.footprint)
                copy.endRow()
            }
            return try copy.finish()
        }
        return summary
    }

    /// COPY into a temporary table, then upsert into ref_buildings_gold by id (in id order, so
    /// concurrent runs sharing buildings lock them in the same order). Rows that would not change
    /// are not rewritten.
    private static func copyBuildings(_ run: LinkRun, unitCount: [Int], db: PGConnection) throws(PostgresError) -> Int {
        let spec = PGCampaignTables.buildings
        try db.execute("""
            CREATE TEMP TABLE flyr_stage_buildings (
                id text, gers_id text, source text, geom geometry(MultiPolygon, 4326), height_m double precision,
                levels integer, address_count integer, is_townhome_row boolean, units_count integer
            ) ON COMMIT DROP
            """)
        let copy = try db.copyIn("COPY flyr_stage_buildings (\(spec.columnList)) FROM STDIN")
        for (i, b) in run.buildings.enumerated() {
            copy.text(b.id); copy.text(b.id); copy.text("gold"); copy.multiPolygon(run.footprint(ofBuilding: i))
            copy.number(b.height, decimals: 2); copy.int(b.levels); copy.int(run.linksOfBuilding(i).count)
            copy.bool(unitCount[i] > 0); copy.int(unitCount[i])
            copy.endRow()
        }
        let n = try copy.finish()
        let updates = spec.columns.dropFirst().map { "\($0.name) = EXCLUDED.\($0.name)" }.joined(separator: ", ")
        let old = spec.columns.dropFirst().map { "r.\($0.name)" }.joined(separator: ", ")
        let new = spec.columns.dropFirst().map { "EXCLUDED.\($0.name)" }.joined(separator: ", ")
        try db.execute("""
            INSERT INTO \(spec.name) AS r (\(spec.columnList))
            SELECT \(spec.columnList) FROM flyr_stage_buildings ORDER BY id
            ON CONFLICT (id) DO UPDATE SET \(updates), updated_at = now()
            WHERE (\(old)) IS DISTINCT FROM (\(new))
            """)
        try db.execute("DROP TABLE flyr_stage_buildings")
        return n
    }
}
