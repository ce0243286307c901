// libFuzzer target for flyr-link's FlatGeobuf reader (FlatGeobufFile, FlatBufferTable, header,
// geometry, properties and feature decoding), built by Fuzz/run-flyrlink-fuzzer.sh flatgeobuf.
// Each input is read as a buildings layer (in the tool's 2 MB chunks) and as an addresses layer
// in 64-byte chunks, which crosses chunk boundaries at every feature. Reading must give a table
// or a FlatGeobufProblem (`needsGDAL` is handed to GDAL by the tool); crashes, sanitizer reports,
// hangs and out-of-memory are bugs.
@testable import FlyrLink

@_cdecl("LLVMFuzzerTestOneInput")
public func flatGeobufFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzFile.write(data, size, suffix: ".fgb")
    let spec = SourceSpec(location: path)
    for (role, chunk) in [(LayerRole.buildings, 2 << 20), (.addresses, 64)] {
        do {
            _ = try FlatGeobufSourceReader.readOwn(spec, role: role, mapping: FieldMapping(), sink: RecordSink(), chunkSize: chunk)
        } catch {
            // .corrupt stops the run with one line; .needsGDAL goes to GDAL.
        }
    }
    return 0
}
