// libFuzzer target for flyr-link's GeoJSON reader (GeoJSONScanner, GeoJSONGeometry,
// GeoJSONSourceReader), built by Fuzz/run-flyrlink-fuzzer.sh geojson. Each input is read as a
// buildings layer and as an addresses layer, as the tool reads a local .geojson file. Reading must
// give a table, nil (not features: GDAL's to read) or an InputError; crashes, sanitizer reports,
// hangs and out-of-memory are bugs.
@testable import FlyrLink

@_cdecl("LLVMFuzzerTestOneInput")
public func geoJSONFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let path = FuzzFile.write(data, size, suffix: ".geojson")
    let spec = SourceSpec(location: path)
    for role in [LayerRole.buildings, .addresses] {
        do {
            _ = try GeoJSONSourceReader.readOwn(spec, role: role, mapping: FieldMapping(), sink: RecordSink())
        } catch {
            // An InputError stops the run with one line.
        }
    }
    return 0
}
