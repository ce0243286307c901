// libFuzzer target for flyr-link's WKB reader (Geometry/WKBReader.swift), built by
// Fuzz/run-flyrlink-fuzzer.sh wkb. Each input is decoded as the readers decode a WKB geometry
// column (SourceTable.Record), and the geometry, when there is one, is measured. Decoding must
// give a geometry or a per-row geometry error; crashes, sanitizer reports, hangs and
// out-of-memory are bugs.
@testable import FlyrLink

@_cdecl("LLVMFuzzerTestOneInput")
public func wkbFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let record = SourceTable.Record(ordinal: 1, values: [], wkb: bytes)
    precondition((record.geometry == nil) != (record.geometryError == nil))
    if case .polygons(let footprint) = record.geometry { _ = footprint.area }
    return 0
}
