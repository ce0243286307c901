import ArgumentParser
import FlyrLink
import Foundation

/// Every failure ends as one line on stderr and exit status 1.
enum CLIError {
    static func exit(with error: Error) -> Never {
        let message: String
        switch error {
        case let e as CustomStringConvertible: message = e.description
        default: message = String(describing: error)
        }
        let oneLine = ConnectionSecrets.masked(message.replacingOccurrences(of: "\n", with: " "))
        FileHandle.standardError.write(Data("flyr-link: error: \(oneLine)\n".utf8))
        Foundation.exit(1)
    }
}
