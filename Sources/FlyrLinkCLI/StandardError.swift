import FlyrLink
import Foundation

/// Lines for the user on stderr that are neither progress (only on a terminal, silenced by
/// `--quiet`) nor errors: they are written whatever stderr is, one line each, passwords masked.
enum StandardError {
    static func line(_ text: String) {
        let oneLine = ConnectionSecrets.masked(text.replacingOccurrences(of: "\n", with: " "))
        FileHandle.standardError.write(Data("flyr-link: \(oneLine)\n".utf8))
    }
}
