import Foundation

/// The report's input fingerprints (SHA-256 of each input file), hashed on a spare thread while
/// the stages run: the files were just read (their pages are cached), and the stages leave a core
/// idle now and then. `wait()` before the report reads them (`SHA256.fingerprint` remembers them).
struct InputFingerprints {
    private let group = DispatchGroup()

    init(_ sources: LinkPipeline.SourceSummary...) {
        let paths = sources.map(\.spec.location).filter { path in
            (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
        }
        DispatchQueue.global(qos: .utility).async(group: group) { for path in paths { _ = SHA256.fingerprint(path) } }
    }

    func wait() { group.wait() }
}
