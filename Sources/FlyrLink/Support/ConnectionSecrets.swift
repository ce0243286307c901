import Foundation

/// The one place passwords are masked: every text that may hold a PostgreSQL connection string
/// (a source or target as given, an error line, a report or manifest entry, progress) goes
/// through `masked` before it is printed or written.
public enum ConnectionSecrets {
    /// `scheme://user:password@host` → `scheme://user:***@host`.
    private static let uriPassword = try! NSRegularExpression(
        pattern: #"([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@]*):[^\s@]*@"#)
    /// `password=secret`, `password = 'se cret'`, `?password=secret&…` (libpq conninfo and URI
    /// query parameters), every occurrence.
    private static let keyPassword = try! NSRegularExpression(
        pattern: #"(?i)\bpassword\s*=\s*('(?:[^'\\]|\\.)*'?|[^\s&']*)"#)

    /// `text` with every password in it replaced by `***`.
    public static func masked(_ text: String) -> String {
        guard text.contains("://") || text.range(of: "password", options: .caseInsensitive) != nil else { return text }
        var s = text
        s = uriPassword.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "$1:***@")
        s = keyPassword.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "password=***")
        return s
    }
}
