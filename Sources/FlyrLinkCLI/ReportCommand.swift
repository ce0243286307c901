import ArgumentParser
import FlyrLink

/// `flyr-link report OUT_DIR`: redraws report.html from an existing output directory (or a
/// snapshot version), from the files in it.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Redraw report.html from an output directory's report.json, GeoJSON layers and links.csv."
    )

    @Argument(help: "An output directory written by flyr-link run (or a snapshot version directory).")
    var directory: String

    @Option(help: "A CSV of true links (address_id or id, building_id): the page gets a reliability curve.")
    var truth: String?

    func run() throws {
        do {
            print(try ReportFile.redraw(directory: directory, truth: truth))
        } catch {
            CLIError.exit(with: error)
        }
    }
}
