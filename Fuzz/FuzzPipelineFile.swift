// libFuzzer target for the pipeline-file parsers (Pipeline/PipelineFile.swift and
// Snapshot/SnapshotPipelineFile.swift, TOML by TOMLKit/toml++), built by
// Fuzz/run-flyrlink-fuzzer.sh pipeline. Each input is loaded as `flyr-link run --pipeline` and
// `flyr-link snapshot --pipeline` load it. Loading must give settings or a one-line InputError;
// crashes, sanitizer reports, hangs and out-of-memory are bugs.
@testable import FlyrLink

@_cdecl("LLVMFuzzerTestOneInput")
public func pipelineFileFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzFile.write(data, size, suffix: ".toml")
    do { _ = try PipelineFile.load(path) } catch {
            // An InputError stops the run with one line.
        }
    do { _ = try SnapshotPipelineFile.load(path) } catch {
            // An InputError stops the run with one line.
        }
    return 0
}
