/// Applies the schema migrations (Migrations/*.sql, embedded as `PGMigrationSQL`) that a database
/// lacks, in order, inside the caller's transaction. Applied versions are recorded in
/// `flyr_link_schema_migrations` (named for the tool, so it cannot collide with another framework's
/// `schema_migrations`); each migration is itself idempotent (`IF NOT EXISTS`, `CREATE OR REPLACE`).
enum PGMigrations {
    static let table = "flyr_link_schema_migrations"

    /// The versions applied now (empty when the database was up to date).
    @discardableResult
    static func apply(on db: PGConnection, migrations: [(version: String, sql: String)] = PGMigrationSQL.all) throws(PostgresError) -> [String] {
        // Up to date (the usual case): no lock, so writers of different campaigns run side by side.
        let done: Set<String>
        do { done = try applied(on: db) } catch { throw error.context("reading \(table)") }
        if done.isSuperset(of: migrations.map(\.version)) { return [] }
        // Two runs migrating at once would race on CREATE TABLE: one waits for the other's commit
        // (the lock is held to the end of the transaction), then finds the migrations applied.
        try db.execute("SELECT pg_advisory_xact_lock(hashtext('flyr-link schema migrations ' || current_schema()))")
        if try tableIsMissing(on: db) {
            do {
                try db.execute("""
                    CREATE TABLE \(table) (
                        version text PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """)
            } catch {
                throw error.context("creating \(table)")
            }
        }
        let recorded = try applied(on: db)
        var newlyApplied: [String] = []
        for (version, sql) in migrations where !recorded.contains(version) {
            do {
                try db.execute(sql)
                try db.execute("INSERT INTO \(table) (version) VALUES ($1)", [version])
            } catch {
                throw error.context("applying migration \(version)")
            }
            newlyApplied.append(version)
        }
        return newlyApplied
    }

    /// Everything lives in current_schema(), the first schema of search_path: a table of the same
    /// name further down the path (e.g. in public) is not ours. Checked before CREATE, so a role
    /// without CREATE rights can still write to an up-to-date schema. Read from pg_class with the
    /// statement's snapshot rather than by name lookup (to_regclass), whose cached "no such
    /// relation" would outlive another writer's commit of the table while we waited for the lock.
    static func tableIsMissing(on db: PGConnection) throws(PostgresError) -> Bool {
        try db.scalar("""
            SELECT NOT EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                               WHERE n.nspname = current_schema() AND c.relname = $1)
            """, [table]) == "t"
    }

    /// The versions recorded in current_schema()'s migrations table (none when it has none).
    static func applied(on db: PGConnection) throws(PostgresError) -> Set<String> {
        if try tableIsMissing(on: db) { return [] }
        return Set(try db.execute("SELECT version FROM \(table)").compactMap { $0.first ?? nil })
    }
}
