import Foundation

/// `--format parquet`: placeholder until the writer lands.
enum GeoParquetOutput {
    static func convert(_ staged: OutputDirectory) throws {
        throw OutputError("--format parquet is not written yet")
    }
}
