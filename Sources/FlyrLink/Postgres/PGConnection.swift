internal import CLateBound
import Foundation

/// A PostgreSQL failure as one line: what flyr-link was doing, then libpq's or the server's message.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable {
        /// The server could not be reached or refused the login.
        case connection
        /// The database has no PostGIS extension.
        case missingPostGIS
        /// The role lacks a privilege (SQLSTATE 42501).
        case permission
        /// An existing table has a column flyr-link cannot write.
        case incompatibleSchema
        /// Any other statement failed.
        case query
    }

    public let kind: Kind
    public let message: String
    /// The server's SQLSTATE, when the server reported the error.
    public let sqlState: String?

    public init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
        self.kind = kind
        self.message = ConnectionSecrets.masked(PostgresError.oneLine(message))
        self.sqlState = sqlState
    }

    public var description: String { message }

    /// The same error with `context` in front ("writing campaign_addresses: …").
    func context(_ context: String) -> PostgresError {
        PostgresError(kind, "\(context): \(message)", sqlState: sqlState)
    }

    /// The same error with `note` after it, in parentheses.
    func note(_ note: String) -> PostgresError {
        PostgresError(kind, "\(message) (\(note))", sqlState: sqlState)
    }

    static func oneLine(_ s: String) -> String {
        s.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}

/// Where a run writes when its output is a database: `postgresql://…`, `postgres://…` or GDAL's
/// `PG:<conninfo>` (the `PG:` prefix is dropped; the rest is a libpq conninfo or URI).
public enum PostgresTarget {
    public static func isTarget(_ out: String) -> Bool { conninfo(from: out) != nil }

    public static func conninfo(from out: String) -> String? {
        if out.hasPrefix("postgresql://") || out.hasPrefix("postgres://") { return out }
        if out.hasPrefix("PG:") { return String(out.dropFirst(3)) }
        return nil
    }

    /// The target with any password masked, for messages and summaries.
    public static func redacted(_ out: String) -> String {
        ConnectionSecrets.masked(out)
    }
}

/// libpq, loaded on first use (see CLateBound): only a run that writes to PostgreSQL loads it.
enum PostgresLibrary {
    fileprivate static let library = LateBoundTable(flyr_pq)

    /// Loads libpq if it is not yet; what must come before any use of `pq`.
    static func ready() throws(PostgresError) {
        if let failure = library.failure { throw PostgresError(.connection, "libpq is not available: \(failure)") }
    }
}

/// libpq's functions, by their C names; only after `PostgresLibrary.ready()` (every connection is
/// opened after it).
var pq: FlyrPQ { PostgresLibrary.library.functions }

/// One libpq connection, used from one thread. Statements return text rows; errors are typed and
/// carry the server's message. Notices (e.g. "relation already exists, skipping") are not printed.
final class PGConnection {
    let handle: OpaquePointer

    init(_ conninfo: String) throws(PostgresError) {
        try PostgresLibrary.ready()
        guard let conn = pq.PQconnectdb(conninfo) else { throw PostgresError(.connection, "cannot allocate a libpq connection") }
        if pq.PQstatus(conn) != CONNECTION_OK {
            let message = pq.PQerrorMessage(conn).map { String(cString: $0) } ?? ""
            pq.PQfinish(conn)
            throw PostgresError(.connection, "cannot connect to PostgreSQL: \(message)")
        }
        handle = conn
        _ = pq.PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    deinit {
        pq.PQfinish(handle)
    }

    var databaseName: String { pq.PQdb(handle).map { String(cString: $0) } ?? "" }
    var userName: String { pq.PQuser(handle).map { String(cString: $0) } ?? "" }
    var serverVersion: Int { Int(pq.PQserverVersion(handle)) }

    /// Runs `sql` (several statements allowed when there are no parameters) and returns the rows
    /// of the last one as text, nil for SQL NULL.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = pq.PQexec(handle, sql)
        } else {
            result = PGConnection.withCStrings(parameters) { values in
                pq.PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
            }
        }
        return try rows(of: result)
    }

    /// The first column of the first row, or nil.
    func scalar(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> String? {
        try execute(sql, parameters).first?.first ?? nil
    }

    func rows(of result: OpaquePointer?) throws(PostgresError) -> [[String?]] {
        guard let result else { throw PostgresError(.query, lastMessage) }
        defer { pq.PQclear(result) }
        switch pq.PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return []
        case PGRES_TUPLES_OK:
            let n = pq.PQntuples(result), m = pq.PQnfields(result)
            var out: [[String?]] = []
            out.reserveCapacity(Int(n))
            for r in 0..<n {
                out.append((0..<m).map { c in
                    pq.PQgetisnull(result, r, c) == 1 ? nil : pq.PQgetvalue(result, r, c).map { String(cString: $0) }
                })
            }
            return out
        default:
            throw error(from: result)
        }
    }

    /// The server's error in a result: its primary message (and detail), with the SQLSTATE.
    func error(from result: OpaquePointer) -> PostgresError {
        func field(_ code: Int32) -> String? {
            pq.PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let state = field(Int32(UInt8(ascii: "C")))
        var message = field(Int32(UInt8(ascii: "M"))) ?? pq.PQresultErrorMessage(result).map { String(cString: $0) } ?? ""
        if message.isEmpty { message = lastMessage }
        if let detail = field(Int32(UInt8(ascii: "D"))) { message += " (\(detail))" }
        let kind: PostgresError.Kind = state == "42501" ? .permission : (state?.hasPrefix("08") == true ? .connection : .query)
        return PostgresError(kind, message, sqlState: state)
    }

    /// Starts `COPY … FROM STDIN`; rows are streamed through the returned writer.
    func copyIn(_ sql: String) throws(PostgresError) -> PGCopyWriter {
        guard let result = pq.PQexec(handle, sql) else { throw PostgresError(.query, lastMessage) }
        defer { pq.PQclear(result) }
        guard pq.PQresultStatus(result) == PGRES_COPY_IN else { throw error(from: result) }
        return PGCopyWriter(connection: self)
    }

    /// A connection-level message (for COPY data errors, where there is no result yet).
    var lastMessage: String { pq.PQerrorMessage(handle).map { String(cString: $0) } ?? "" }

    static func withCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
