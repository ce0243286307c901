// Shared by the FlyrLink libFuzzer targets (Fuzz/run-flyrlink-fuzzer.sh): the readers take a path,
// as the tool gives them, so each input is written to a file in memory (/dev/shm) first.
import Foundation

enum FuzzFile {
    /// Writes `data` to a per-process file ending in `suffix` and returns its path.
    static func write(_ data: UnsafePointer<UInt8>?, _ size: Int, suffix: String) -> String {
        let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(dir)/flyr-fuzz-\(getpid())\(suffix)"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(fd >= 0, "cannot write \(path)")
        var done = 0
        while done < size, let data {
            let n = Foundation.write(fd, data + done, size - done)
            precondition(n > 0)
            done += n
        }
        close(fd)
        return path
    }
}
