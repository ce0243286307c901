/// Applies the schema migrations (Migrations/*.sql, embedded as `PGMigrationSQL`) that a database
/// lacks, in order, inside the caller's transaction. Applied versions are recorded in
/// `flyr_link_schema_migrations` (named for the tool, so it cannot collide with another framework's
/// `schema_migrations`); each migration is itself idempotent (`IF NOT EXISTS`, `CREATE OR REPLACE`).
enum PGMigrations {
    static let table = "flyr_link_schema_migrations"

    /// The versions applied now (empty when the database was up to date).
    @discardableResult
    static func apply(on db: PGConnection, migrations: [(version: String, sql: String)] = PGMigrationSQL.all) throws(PostgresError) -> [String] {
        // Two runs migrating at once would race on CREATE TABLE: one waits for the other's commit.
        try db.execute("SELECT pg_advisory_xact_lock(hashtext('flyr-link schema migrations'))")
        // Everything lives in current_schema(), the first schema of search_path: a table of the same
        // name further down the path (e.g. in public) is not ours. Checked before CREATE, so a role
        // without CREATE rights can still write to an up-to-date schema.
        if try db.scalar("SELECT to_regclass(format('%I.%I', current_schema(), $1::text)) IS NULL", [table]) == "t" {
            try db.execute("""
                CREATE TABLE \(table) (
                    version text PRIMARY KEY,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
        }
        let done = Set(try db.execute("SELECT version FROM \(table)").compactMap { $0.first ?? nil })
        var applied: [String] = []
        for (version, sql) in migrations where !done.contains(version) {
            do {
                try db.execute(sql)
                try db.execute("INSERT INTO \(table) (version) VALUES ($1)", [version])
            } catch {
                throw error.context("applying migration \(version)")
            }
            applied.append(version)
        }
        return applied
    }
}
