import Foundation

/// An output directory written as a whole or not at all: files go to a hidden temporary sibling,
/// which then replaces the target in one atomic step (renameat2 RENAME_EXCHANGE on Linux), so a
/// failed or killed run leaves the previous output untouched and never half-written.
final class OutputDirectory {
    let target: URL
    let staging: URL
    private var committed = false

    init(path: String) throws(OutputError) {
        target = URL(fileURLWithPath: path).standardizedFileURL
        let parent = target.deletingLastPathComponent()
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDir), !isDir.boolValue {
            throw OutputError("output \(target.path) exists and is not a directory")
        }
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw OutputError("cannot create \(parent.path): \(error.localizedDescription)")
        }
        staging = parent.appendingPathComponent(".\(target.lastPathComponent).tmp-\(getpid())")
        try? FileManager.default.removeItem(at: staging)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw OutputError("cannot write in \(parent.path): \(error.localizedDescription)")
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(at: staging) }
    }

    func path(_ name: String) -> String { staging.appendingPathComponent(name).path }

    /// Puts the staged files in place of the target.
    func commit() throws(OutputError) {
        if !FileManager.default.fileExists(atPath: target.path) {
            guard rename(staging.path, target.path) == 0 else {
                throw OutputError("cannot move output into \(target.path): \(String(cString: strerror(errno)))")
            }
        } else if AtomicRename.exchange(staging.path, target.path) {
            try? FileManager.default.removeItem(at: staging)  // now holds the previous output
        } else {
            // No RENAME_EXCHANGE here: move the old one aside, then the new one in.
            let old = staging.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).old-\(getpid())")
            guard rename(target.path, old.path) == 0, rename(staging.path, target.path) == 0 else {
                throw OutputError("cannot replace \(target.path): \(String(cString: strerror(errno)))")
            }
            try? FileManager.default.removeItem(at: old)
        }
        committed = true
    }
}

/// renameat2(2) with RENAME_EXCHANGE, looked up at run time (Glibc's Swift module does not export it).
enum AtomicRename {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    private static let function: RenameAt2? = {
        guard let sym = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(sym, to: RenameAt2.self)
    }()

    static func exchange(_ a: String, _ b: String) -> Bool {
        guard let f = function else { return false }
        let AT_FDCWD: Int32 = -100
        let RENAME_EXCHANGE: UInt32 = 1 << 1
        return f(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0
    }
}
