import Foundation
import XCTest
@testable import FlyrLink

/// Writing runs into PostgreSQL/PostGIS and reading sources from it, against the real server of
/// $FLYR_TEST_PG. Each test works in a schema of its own.
final class PostgresTests: XCTestCase {
    static let campaignA = "5b0f3c8e-6d2a-5f1e-9a7b-2c4d6e8f0a1b"
    static let campaignB = "0c1d2e3f-4a5b-5c6d-8e7f-8091a2b3c4d5"

    /// The Helsinki sample (or, with `rows`, the sample with townhouse rows) linked for
    /// `campaign`; `out` is a directory or a database.
    func helsinki(campaign: String, out: String, maxDistance: Double? = nil, rows: Bool = false) throws -> LinkRun {
        var options = RunOptions(buildings: SourceSpec(location: rows ? TestPaths.rowsBuildings : TestPaths.helsinkiBuildings),
                                 addresses: SourceSpec(location: rows ? TestPaths.rowsAddresses : TestPaths.helsinkiAddresses), output: out)
        options.campaignID = campaign
        options.threads = 2
        if let maxDistance { options.link.maxDistance = maxDistance }
        return try LinkPipeline(options: options).run()
    }

    func rpcFeatures(_ conninfo: String, _ campaign: String) throws -> [[String: Any]] {
        let text = try XCTUnwrap(try TestDatabase.query(conninfo, "SELECT rpc_get_campaign_full_features($1)", [campaign]).first?.first ?? nil)
        let obj = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(obj["type"] as? String, "FeatureCollection")
        return obj["features"] as? [[String: Any]] ?? []
    }

    /// Row counts of one campaign, the full-features feature count included: one consistent snapshot.
    static let stateQuery = """
        SELECT (SELECT count(*) FROM campaign_addresses WHERE campaign_id = $1),
               (SELECT count(*) FROM campaign_addresses WHERE campaign_id = $1 AND building_id IS NOT NULL),
               (SELECT count(*) FROM building_address_links WHERE campaign_id = $1),
               (SELECT count(*) FROM building_units WHERE campaign_id = $1),
               (SELECT count(*) FROM campaign_buildings WHERE campaign_id = $1),
               json_array_length(rpc_get_campaign_full_features($1) -> 'features')
        """

    func state(_ conninfo: String, _ campaign: String, rpc: Bool = true) throws -> [String] {
        let sql = rpc ? Self.stateQuery : Self.stateQuery.replacingOccurrences(of: "json_array_length(rpc_get_campaign_full_features($1) -> 'features')", with: "0")
        return try TestDatabase.query(conninfo, sql, [campaign]).first!.map { $0 ?? "null" }
    }

    static func expectedState(_ run: LinkRun, features: Int) -> [String] {
        [run.addresses.count, run.links.count, run.links.count, run.units.count, run.buildings.count, features].map(String.init)
    }

    // MARK: write, read back, RPC

    func testWrittenCampaignReadsBackAndTheRPCEqualsFeaturesGeoJSON() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        let dir = TestPaths.temporaryDirectory(self).appendingPathComponent("out")
        let fileRun = try helsinki(campaign: Self.campaignA, out: dir.path, rows: true)
        try RunWriter.write(fileRun)
        let dbRun = try helsinki(campaign: Self.campaignA, out: db, rows: true)
        try RunWriter.write(dbRun)
        XCTAssertFalse(dbRun.units.isEmpty, "the sample has townhouse slices, so the RPC's slice features are checked")

        // The tables hold the run.
        let features = try OutputFiles.geojson(dir.appendingPathComponent("features.geojson").path)
        XCTAssertEqual(try state(db, Self.campaignA), Self.expectedState(dbRun, features: features.count))
        XCTAssertEqual(try TestDatabase.query(db, "SELECT count(*) FROM ref_buildings_gold").first?.first, String(dbRun.buildings.count))

        // building_address_links is links.csv.
        let csv = try OutputFiles.csv(dir.appendingPathComponent("links.csv").path)
        let rows = try TestDatabase.query(db, """
            SELECT id, campaign_id, building_id, address_id, unit_id, match_method, is_primary, confidence_score, distance_m
            FROM building_address_links WHERE campaign_id = $1 ORDER BY id
            """, [Self.campaignA])
        XCTAssertEqual(rows.count, csv.count)
        let byID = Dictionary(uniqueKeysWithValues: csv.map { ($0["id"]!, $0) })
        for r in rows {
            guard let c = byID[r[0]!] else { XCTFail("link \(r[0]!) not in links.csv"); continue }
            XCTAssertEqual(r[1], c["campaign_id"]); XCTAssertEqual(r[2], c["building_id"]); XCTAssertEqual(r[3], c["address_id"])
            XCTAssertEqual(r[4] ?? "", c["unit_id"]); XCTAssertEqual(r[5], c["match_method"])
            XCTAssertEqual(r[6] == "t", c["is_primary"] == "true")
            XCTAssertEqual(Double(r[7]!), Double(c["confidence"]!)); XCTAssertEqual(Double(r[8]!), Double(c["distance_m"]!))
        }

        // campaign_addresses carries the link of each address and its point.
        let addresses = try OutputFiles.geojson(dir.appendingPathComponent("addresses.geojson").path)
        let dbAddresses = try TestDatabase.query(db, """
            SELECT id, house_number, street_name, building_id, match_method, ST_X(geom), ST_Y(geom), ST_SRID(geom)
            FROM campaign_addresses WHERE campaign_id = $1 ORDER BY ordinal
            """, [Self.campaignA])
        XCTAssertEqual(dbAddresses.count, addresses.count)
        for (r, f) in zip(dbAddresses, addresses) {
            let p = OutputFiles.properties(f)
            XCTAssertEqual(r[0], p["id"] as? String)
            XCTAssertEqual(r[1], p["house_number"] as? String)
            XCTAssertEqual(r[2], p["street_name"] as? String)
            XCTAssertEqual(r[3], p["building_id"] as? String)
            XCTAssertEqual(r[4], p["match_method"] as? String)
            let xy = (f["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
            XCTAssertEqual(Double(r[5]!)!, xy[0], accuracy: 1e-7)
            XCTAssertEqual(Double(r[6]!)!, xy[1], accuracy: 1e-7)
            XCTAssertEqual(r[7], "4326")
        }

        // The RPC returns features.geojson.
        FeatureComparison.assertSame(try rpcFeatures(db, Self.campaignA), features)
        XCTAssertEqual(try rpcFeatures(db, Self.campaignB).count, 0, "an unknown campaign has no features")

        // Indexes the issue asks for exist.
        let indexes = try TestDatabase.query(db, "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()").compactMap { $0[0] }
        for table in ["ref_buildings_gold", "campaign_addresses", "building_units"] {
            XCTAssertTrue(indexes.contains { $0.contains(".\(table) USING gist (geom)") }, "GiST index on \(table).geom")
        }
        for table in ["campaign_addresses", "building_address_links", "building_units"] {
            for column in ["campaign_id", "building_id"] {
                XCTAssertTrue(indexes.contains { $0.contains(".\(table) USING btree (\(column))") }, "btree on \(table).\(column)")
            }
        }
    }

    func testTheCommandLineWritesToADatabaseAndHidesThePassword() throws {
        let (db, schema) = try TestDatabase.isolatedSchema(self)
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", db, "--campaign", Self.campaignA, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("outputs: postgres"), r.stdout)
        XCTAssertEqual(try TestDatabase.query(db, "SELECT count(*) FROM campaign_addresses WHERE campaign_id = $1", [Self.campaignA]).first?.first,
                       "1377")
        XCTAssertEqual(try TestDatabase.query(db, "SELECT string_agg(version, ',' ORDER BY version) FROM \(schema).flyr_link_schema_migrations").first?.first,
                       PGMigrationSQL.all.map(\.version).joined(separator: ","))
        // A pipeline file may name the database as its `out`; the path keys around it stay relative to the file.
        let (db2, _) = try TestDatabase.isolatedSchema(self)
        let toml = TestPaths.temporaryDirectory(self).appendingPathComponent("pg.toml")
        try """
            buildings = "\(TestPaths.helsinkiBuildings)"
            addresses = "\(TestPaths.helsinkiAddresses)"
            out = "\(db2)"
            campaign = "\(Self.campaignB)"
            """.write(to: toml, atomically: true, encoding: .utf8)
        let p = try ProcessRunner.flyrLink(["run", toml.path, "--quiet"])
        XCTAssertEqual(p.status, 0, p.stderr)
        XCTAssertEqual(try TestDatabase.query(db2, "SELECT count(*) FROM campaign_addresses WHERE campaign_id = $1", [Self.campaignB]).first?.first,
                       "1377")

        XCTAssertEqual(PostgresTarget.redacted("postgresql://ann:s3cret@db:5432/x"), "postgresql://ann:***@db:5432/x")
        XCTAssertEqual(PostgresTarget.redacted("PG:host=db password=s3cret dbname=x"), "PG:host=db password=*** dbname=x")
        XCTAssertEqual(PostgresTarget.conninfo(from: "PG:dbname=x"), "dbname=x")
        XCTAssertNil(PostgresTarget.conninfo(from: "/tmp/out"))
    }

    // MARK: re-runs, concurrency, other campaigns

    func testARerunReplacesTheCampaignAtomicallyAndLeavesOtherCampaigns() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        // Campaign B, and a first run of campaign A without proximity links (a different state).
        let runB = try helsinki(campaign: Self.campaignB, out: db, maxDistance: 5)
        try RunWriter.write(runB)
        let dirB = TestPaths.temporaryDirectory(self).appendingPathComponent("b")
        var fileB = runB
        fileB.options.output = dirB.path
        try RunWriter.write(fileB)
        let stateB = try state(db, Self.campaignB)

        let first = try helsinki(campaign: Self.campaignA, out: db, maxDistance: 0)
        try RunWriter.write(first)
        let old = try state(db, Self.campaignA)
        let second = try helsinki(campaign: Self.campaignA, out: db)
        XCTAssertNotEqual(first.links.count, second.links.count, "the two runs must differ for the test to see a mix")

        // A reader polls the campaign's counts in a loop while the second run rewrites it; the
        // writer holds its transaction open for a second after deleting the old rows.
        let reader = StateReader(conninfo: db, campaign: Self.campaignA, query: Self.stateQuery)
        reader.start()
        while reader.observations().isEmpty && reader.error == nil { Thread.sleep(forTimeInterval: 0.01) }
        let summary = try PGCampaignWriter.write(second, conninfo: db, pauseAfterDelete: 1.0)
        let afterCommit = reader.observations().count
        while reader.observations().count < afterCommit + 3 && reader.error == nil { Thread.sleep(forTimeInterval: 0.01) }
        reader.stop()
        XCTAssertNil(reader.error, "reader: \(reader.error ?? "")")

        let new = try state(db, Self.campaignA)
        XCTAssertEqual(summary.links, second.links.count)
        XCTAssertEqual(new, Self.expectedState(second, features: new[5].isEmpty ? 0 : Int(new[5])!))
        XCTAssertNotEqual(old, new)
        let seen = reader.observations()
        XCTAssertGreaterThan(seen.filter { $0 == old }.count, 5, "the reader kept seeing the old rows while the write was open")
        XCTAssertEqual(seen.last, new, "and the new rows after the commit")
        let partial = seen.filter { $0 != old && $0 != new }
        XCTAssertEqual(partial.count, 0, "the reader saw partial states, first \(partial.first ?? []) (old \(old), new \(new))")

        // Campaign B is untouched: same rows, same features as its own run.
        XCTAssertEqual(try state(db, Self.campaignB), stateB)
        FeatureComparison.assertSame(try rpcFeatures(db, Self.campaignB),
                                     try OutputFiles.geojson(dirB.appendingPathComponent("features.geojson").path))
        // Shared buildings are upserted, not duplicated.
        XCTAssertEqual(try TestDatabase.query(db, "SELECT count(*) FROM ref_buildings_gold").first?.first, String(second.buildings.count))
    }

    func testConcurrentWritersOnAFreshDatabaseAllSucceed() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        // Two runs of campaign A and one of B, sharing every building, started together on empty
        // schema: the migrations, the shared-building upserts and campaign A's rows must not collide.
        let runs = [try helsinki(campaign: Self.campaignA, out: db, maxDistance: 0),
                    try helsinki(campaign: Self.campaignA, out: db),
                    try helsinki(campaign: Self.campaignB, out: db, maxDistance: 5)]
        // Twice: on the fresh schema (concurrent migrations), then on the migrated one (no migration lock).
        for round in 1...2 {
            let errors = ErrorList()
            DispatchQueue.concurrentPerform(iterations: runs.count) { i in
                do { _ = try PGCampaignWriter.write(runs[i], conninfo: db) } catch { errors.append("round \(round), run \(i): \(error)") }
            }
            XCTAssertEqual(errors.all, [])
            let a = try state(db, Self.campaignA, rpc: false)
            XCTAssertTrue([Self.expectedState(runs[0], features: 0), Self.expectedState(runs[1], features: 0)].contains(a),
                          "campaign A holds one whole run, not a mix: \(a)")
            XCTAssertEqual(try state(db, Self.campaignB, rpc: false), Self.expectedState(runs[2], features: 0))
            XCTAssertEqual(try TestDatabase.query(db, "SELECT count(*) FROM ref_buildings_gold").first?.first, String(runs[0].buildings.count))
        }
    }

    // MARK: errors: one clear line, nothing half-written

    func testConnectionErrorIsOneLine() throws {
        let run = try helsinki(campaign: Self.campaignA, out: "postgresql://postgres@127.0.0.1:1/flyr_test?connect_timeout=5")
        XCTAssertThrowsError(try RunWriter.write(run)) { error in
            let e = error as? PostgresError
            XCTAssertEqual(e?.kind, .connection)
            XCTAssertTrue(e?.message.hasPrefix("cannot connect to PostgreSQL:") ?? false, "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
        let r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", "postgresql://postgres@127.0.0.1:1/x", "--quiet"])
        XCTAssertEqual(r.status, 1)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("flyr-link: error: cannot connect to PostgreSQL:") ?? false, r.stderr)
    }

    func testMissingPostGISIsReportedAndNothingIsCreated() throws {
        let base = try TestDatabase.conninfo()
        let name = "flyr_nopostgis_" + UUID().uuidString.prefix(8).lowercased()
        try PGConnection(base).execute("CREATE DATABASE \(name)")
        addTeardownBlock { _ = try? PGConnection(base).execute("DROP DATABASE \(name)") }
        let db = TestDatabase.with(base, [("dbname", name)])
        let run = try helsinki(campaign: Self.campaignA, out: db)
        XCTAssertThrowsError(try RunWriter.write(run)) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .missingPostGIS, "\(error)")
            XCTAssertTrue("\(error)".contains("PostGIS is not installed in database \(name)"), "\(error)")
        }
        XCTAssertEqual(try TestDatabase.query(db, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").first?.first, "0")
    }

    func testARoleWithoutRightsIsReportedAndNothingIsCreated() throws {
        let (db, schema) = try TestDatabase.isolatedSchema(self)
        let base = try TestDatabase.conninfo()
        let role = "flyr_noright_" + UUID().uuidString.prefix(8).lowercased()
        try PGConnection(base).execute("CREATE ROLE \(role) LOGIN")
        addTeardownBlock { _ = try? PGConnection(base).execute("DROP ROLE \(role)") }
        // It may use the schema, but not create in it.
        try PGConnection(base).execute("GRANT USAGE ON SCHEMA \(schema) TO \(role)")
        let run = try helsinki(campaign: Self.campaignA, out: TestDatabase.with(db, [("user", role)]))
        XCTAssertThrowsError(try RunWriter.write(run)) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .permission, "\(error)")
            XCTAssertTrue("\(error)".contains("permission denied"), "\(error)")
            XCTAssertFalse("\(error)".contains("\n"))
        }
        XCTAssertEqual(try TestDatabase.query(db, "SELECT count(*) FROM pg_tables WHERE schemaname = $1", [schema]).first?.first, "0")
    }

    func testAnIncompatibleColumnIsReportedAndTheCampaignKeepsItsRows() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        let first = try helsinki(campaign: Self.campaignA, out: db)
        try RunWriter.write(first)
        let before = try state(db, Self.campaignA, rpc: false)
        try TestDatabase.query(db, "ALTER TABLE building_units ALTER COLUMN unit_index DROP NOT NULL, ALTER COLUMN unit_index TYPE date USING NULL")
        XCTAssertThrowsError(try RunWriter.write(first)) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .incompatibleSchema, "\(error)")
            XCTAssertEqual("\(error)", "table building_units has column unit_index of type date, where flyr-link writes integer")
        }
        XCTAssertEqual(try state(db, Self.campaignA, rpc: false), before)
    }

    func testAnExistingAppTableIsCompletedAndItsOwnColumnsKept() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        // An app's campaign_addresses with columns of its own and few of ours.
        try TestDatabase.query(db, """
            CREATE TABLE campaign_addresses (
                id text NOT NULL, campaign_id uuid NOT NULL, house_number text, geom geometry(Point, 4326),
                scans integer NOT NULL DEFAULT 0, qr_code_base64 text, PRIMARY KEY (campaign_id, id))
            """)
        let dir = TestPaths.temporaryDirectory(self).appendingPathComponent("out")
        var run = try helsinki(campaign: Self.campaignA, out: db)
        try RunWriter.write(run)
        // Its columns keep their defaults; ours were added and filled.
        let withStreet = run.addresses.filter { $0.streetName != nil }.count
        XCTAssertGreaterThan(withStreet, 1000)
        XCTAssertEqual(try TestDatabase.query(db, "SELECT count(*), sum(scans), count(street_name), count(qr_code_base64) FROM campaign_addresses").first,
                       ["1377", "0", String(withStreet), "0"])
        run.options.output = dir.path
        try RunWriter.write(run)
        FeatureComparison.assertSame(try rpcFeatures(db, Self.campaignA),
                                     try OutputFiles.geojson(dir.appendingPathComponent("features.geojson").path))

        // A NOT NULL column without a default that flyr-link cannot fill: one line, nothing written.
        try TestDatabase.query(db, "ALTER TABLE campaign_addresses ADD COLUMN owner_id uuid NOT NULL DEFAULT gen_random_uuid()")
        try TestDatabase.query(db, "ALTER TABLE campaign_addresses ALTER COLUMN owner_id DROP DEFAULT")
        let before = try state(db, Self.campaignA)
        XCTAssertThrowsError(try PGCampaignWriter.write(run, conninfo: db)) { error in
            XCTAssertEqual("\(error)", "table campaign_addresses has column owner_id NOT NULL without a default, which flyr-link does not write")
        }
        XCTAssertEqual(try state(db, Self.campaignA), before)
    }

    func testAFailureInTheLastCopyRollsBackTheWholeWrite() throws {
        let (db, _) = try TestDatabase.isolatedSchema(self)
        let first = try helsinki(campaign: Self.campaignA, out: db, maxDistance: 0, rows: true)
        try RunWriter.write(first)
        let before = try state(db, Self.campaignA)
        // building_units is written last, after the DELETE and every other COPY.
        try TestDatabase.query(db, "ALTER TABLE building_units ADD CONSTRAINT no_units CHECK (unit_index < 0) NOT VALID")
        let second = try helsinki(campaign: Self.campaignA, out: db, rows: true)
        XCTAssertThrowsError(try RunWriter.write(second)) { error in
            XCTAssertTrue("\(error)".hasPrefix("writing building_units:"), "\(error)")
            XCTAssertTrue("\(error)".contains("no_units"), "\(error)")
        }
        XCTAssertEqual(try state(db, Self.campaignA), before)
    }

    // MARK: migrations

    func testEmbeddedMigrationsAreTheSQLFiles() throws {
        let dir = TestPaths.root.appendingPathComponent("Sources/FlyrLink/Postgres/Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".sql") }.sorted()
        XCTAssertEqual(PGMigrationSQL.all.map { $0.version + ".sql" }, files, "rerun scripts/gen-migrations.sh")
        for (version, sql) in PGMigrationSQL.all {
            let text = try String(contentsOf: dir.appendingPathComponent(version + ".sql"), encoding: .utf8)
            XCTAssertEqual(sql, text, "\(version): rerun scripts/gen-migrations.sh")
        }
    }

    func testMigrationsApplyOnceAndAreIdempotent() throws {
        let (db, schema) = try TestDatabase.isolatedSchema(self)
        let conn = try PGConnection(db)
        XCTAssertEqual(try PGMigrations.apply(on: conn), PGMigrationSQL.all.map(\.version))
        XCTAssertEqual(try PGMigrations.apply(on: conn), [])
        // Each migration can also run again as it is.
        for (_, sql) in PGMigrationSQL.all { try conn.execute(sql) }
        let tables = try TestDatabase.query(db, "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY 1", [schema]).compactMap { $0[0] }
        XCTAssertEqual(tables, ["building_address_links", "building_units", "campaign_addresses", "campaign_buildings",
                                "flyr_link_schema_migrations", "ref_buildings_gold"])
    }

    // MARK: inputs from PostGIS

    func testBuildingsFromATableAndAddressesFromAQueryLinkLikeTheFiles() throws {
        let (db, schema) = try TestDatabase.isolatedSchema(self)
        let base = try TestDatabase.conninfo()
        for (file, table) in [(TestPaths.helsinkiBuildings, "hel_buildings"), (TestPaths.helsinkiAddresses, "hel_addresses")] {
            try ProcessRunner.ogr2ogr(["-f", "PostgreSQL", "PG:" + base, file, "-nln", "\(schema).\(table)", "-lco", "GEOMETRY_NAME=geom", "-lco", "LAUNDER=NO"])
        }
        let dir = TestPaths.temporaryDirectory(self)
        let fromFiles = dir.appendingPathComponent("files").path, fromDB = dir.appendingPathComponent("db").path
        var r = try ProcessRunner.flyrLink(["run", "--buildings", TestPaths.helsinkiBuildings, "--addresses", TestPaths.helsinkiAddresses,
                                            "--out", fromFiles, "--campaign", Self.campaignA, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // A password in the conninfo (ignored by the test server's trust login) stays out of report.json.
        let withPassword = base.replacingOccurrences(of: "://postgres@", with: "://postgres:s3cret@")
        r = try ProcessRunner.flyrLink(["run", "--buildings", "PG:" + base, "--buildings-layer", "\(schema).hel_buildings",
                                        "--addresses", withPassword, "--addresses-layer", "SELECT * FROM \(schema).hel_addresses ORDER BY ogc_fid",
                                        "--out", fromDB, "--campaign", Self.campaignA, "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let a = try String(contentsOfFile: fromFiles + "/links.csv", encoding: .utf8)
        let b = try String(contentsOfFile: fromDB + "/links.csv", encoding: .utf8)
        XCTAssertGreaterThan(a.split(separator: "\n").count, 1000)
        XCTAssertEqual(a, b, "links read from PostGIS equal links read from the files")
        let report = try String(contentsOfFile: fromDB + "/report.json", encoding: .utf8)
        XCTAssertTrue(report.contains("hel_addresses"), "the report names the source")
        XCTAssertFalse(report.contains("s3cret"), "but not its password")
        _ = db
        r = try ProcessRunner.flyrLink(["run", "--buildings", "PG:" + base, "--buildings-layer", "\(schema).no_such_table",
                                        "--addresses", TestPaths.helsinkiAddresses, "--out", fromDB, "--quiet"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no layer '\(schema).no_such_table'"), r.stderr)
    }
}

final class ErrorList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func append(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}

/// Polls a campaign's state on its own connection, on its own thread, until stopped.
final class StateReader: @unchecked Sendable {
    private let conninfo: String, campaign: String, query: String
    private let lock = NSLock()
    private var seen: [[String]] = []
    private var stopping = false
    private var done = DispatchSemaphore(value: 0)
    private(set) var error: String?

    init(conninfo: String, campaign: String, query: String) {
        self.conninfo = conninfo
        self.campaign = campaign
        self.query = query
    }

    func start() {
        let thread = Thread { [self] in
            defer { done.signal() }
            do {
                let db = try PGConnection(conninfo)
                while !lock.withLock({ stopping }) {
                    let row = try db.execute(query, [campaign]).first!.map { $0 ?? "null" }
                    lock.withLock { seen.append(row) }
                }
            } catch {
                lock.withLock { self.error = "\(error)" }
            }
        }
        thread.start()
    }

    func observations() -> [[String]] { lock.withLock { seen } }

    func stop() {
        lock.withLock { stopping = true }
        done.wait()
    }
}
