import Foundation

/// Writing report.html: into a run's staging directory (swapped into place with the rest of the
/// output), or, redrawn from an existing output directory, to a temporary sibling renamed over it.
public enum ReportFile {
    public static let name = "report.html"

    /// The page of a finished run, written to `path` (inside a staging directory).
    static func write(_ run: LinkRun, to path: String, observer: PipelineObserver? = nil) throws(OutputError) {
        observer?(.started(.report, detail: name))
        let t0 = Date()
        let page: String
        do { page = try ReportPage.make(run) } catch { throw OutputError("report.html: \(error)") }
        try write(page, to: path)
        observer?(.finished(.report, detail: name, seconds: Date().timeIntervalSince(t0), items: run.addresses.count))
    }

    /// Redraws `directory`'s report.html from the files in it (report.json, rejects.csv, the GeoJSON
    /// layers or links.csv); the old page stays until the new one is complete. Returns its path.
    /// `truth`: a CSV of true links (`Reliability.readTruth`); the page then has a reliability curve.
    @discardableResult
    public static func redraw(directory: String, truth: String? = nil) throws -> String {
        try redraw(directory: directory, truth: truth, houseNumbers: [:])
    }

    /// `houseNumbers`: those a links-only output lacks (by address id; a distributed run's merge
    /// knows those its page shows). `checkingLinks`: see `OutputDirectoryContents`.
    package static func redraw(directory: String, truth: String? = nil, houseNumbers: [String: String?], checkingLinks: Bool = true) throws -> String {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw InputError("\(directory) is not a directory")
        }
        let contents = try OutputDirectoryContents(directory: directory, houseNumbers: houseNumbers, checkingLinks: checkingLinks)
        let reliability = try truth.map { try Reliability(contents, truth: try Reliability.readTruth($0), truthFile: $0) }
        let target = (directory as NSString).appendingPathComponent(name)
        let temporary = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())")
        do {
            try write(ReportPage.make(contents, reliability: reliability), to: temporary)
            guard rename(temporary, target) == 0 else {
                throw OutputError("cannot replace \(target): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        return target
    }

    static func write(_ page: String, to path: String) throws(OutputError) {
        guard FileManager.default.createFile(atPath: path, contents: Data(page.utf8)) else {
            throw OutputError("cannot write \(path)")
        }
    }
}
