import ArgumentParser
import FlyrLink

// The library's closed sets as option types: --help and completions list their values, and a
// value outside them is a usage error naming the accepted ones.
extension OutputFormat: ExpressibleByArgument {}
extension RunOptions.OutputSelection: ExpressibleByArgument {}
extension RunOptions.UnitsMode: ExpressibleByArgument {}
extension RunOptions.ParquetReader: ExpressibleByArgument {}
extension RunOptions.HeightUnit: ExpressibleByArgument {}
extension LinkOptions.Strategy: ExpressibleByArgument {}

/// `inspect --role`: a territory is read only beside buildings and addresses, so it is not a role here.
extension LayerRole: ExpressibleByArgument {
    public init?(argument: String) {
        guard argument != LayerRole.territory.rawValue else { return nil }
        self.init(rawValue: argument)
    }

    public static var allValueStrings: [String] { [LayerRole.buildings, .addresses].map(\.rawValue) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
