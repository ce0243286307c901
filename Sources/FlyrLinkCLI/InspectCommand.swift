import ArgumentParser
import FlyrLink
import Foundation

/// `flyr-link inspect`: what flyr-link reads from a source — reader, layer, CRS, geometry types,
/// extent, the source's fields with types, the field mapping, feature count (and inside a
/// territory) and read time — without linking anything.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Read one source as buildings or addresses: geometry types, extent, CRS, fields and types, the field mapping a run would use, feature count, read time."
    )

    @Argument(help: "The source: any OGR source or GeoParquet (path or path:layer).")
    var source: String

    @Option(help: "Read it as buildings or addresses.")
    var role: LayerRole = .buildings

    @Option(help: "Layer name.")
    var layer: String?

    @Option(help: "Also count the features a run keeps in this polygon: buildings that intersect it, addresses inside (GeoParquet: row groups outside its box are not read).")
    var territory: String?

    @Option(help: "GeoParquet reader: auto, gdal or flyr.")
    var parquetReader: RunOptions.ParquetReader = .auto

    @OptionGroup var remote: RemoteReadOptions

    func run() throws {
        do {
            let limits = remote.limits(over: RemoteReadLimits())
            try limits.validate()
            let summary = try SourceInspection.inspect(SourceSpec.parse(source, layer: layer), role: role,
                                                       territory: territory.map { SourceSpec.parse($0) },
                                                       parquetReader: parquetReader,
                                                       remote: limits)
            print(summary.text)
        } catch {
            CLIError.exit(with: error)
        }
    }
}
