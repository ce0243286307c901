import Foundation

/// Whether `--write-evidence FILE` may be written: missing, empty or a run's evidence; another
/// regular file only with `--overwrite`; never an input, a directory, a device or inside `--out`.
enum EvidenceTarget {
    static func check(_ path: String, overwrite: Bool, inputs: [String], output: String?) throws(OutputError) {
        let found = try WritePath.resolve(path, role: "--write-evidence", inputs: inputs)
        let shown = found.url.path
        func refuse(_ why: String) -> OutputError { OutputError("refusing to write evidence to \(shown): \(why)") }
        if let output {
            let out = WritePath.realPath(output) ?? URL(fileURLWithPath: output).standardizedFileURL.path
            if WritePath.isSameOrInside(shown, out) {
                throw refuse("it lies in the --out target \(output), which the run replaces (give a path outside it)")
            }
        }
        switch found.kind {
        case nil: return
        case .directory: throw refuse("it is a directory (give a file path)")
        case .file:
            if WritePath.isEmptyFile(shown) || isEvidence(shown) || overwrite { return }
            throw refuse("it is a file flyr-link did not write (pass --overwrite to replace it, or give a new path)")
        }
    }

    /// Whether the file's first line is an evidence header (`EvidenceExport`).
    static func isEvidence(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 4096), let end = head.firstIndex(of: 0x0A) else { return false }
        let line = String(decoding: head[..<end], as: UTF8.self)
        return line.hasPrefix(EvidenceExport.headerStart) && line.hasSuffix(EvidenceExport.headerEnd)
    }
}
