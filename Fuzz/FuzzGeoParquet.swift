// libFuzzer entry point: compiled together with Sources/GeoParquet/*.swift by Fuzz/run-fuzzer.sh.
// Any input must either read or throw GeoParquetError; crashes, sanitizer reports, hangs and
// out-of-memory are bugs.

@_cdecl("LLVMFuzzerTestOneInput")
public func geoParquetFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let file = try GeoParquetFile(bytes: bytes, name: "fuzz-input")
        let columns = file.columns.filter(\.isReadable).map(\.path)
        let query: BoundingBox? = size % 2 == 0 ? BoundingBox(xmin: -10, ymin: -10, xmax: 10, ymax: 10) : nil
        try file.read(columns: columns, bbox: query) { batch in
            for wkb in batch.geometryWKB {
                guard let wkb else { continue }
                if let g = try? WKBGeometry(wkb: wkb) { _ = g.wkt }
                _ = WKBGeometry.envelope(of: wkb)
            }
        }
    } catch {
        // GeoParquetError is the expected outcome for bad input.
    }
    // The WKB parser on its own.
    if let g = try? WKBGeometry(wkb: bytes) { _ = g.wkt }
    return 0
}
