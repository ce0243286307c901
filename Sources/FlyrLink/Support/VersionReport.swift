internal import CBuildInfo
internal import CGEOS
internal import CLateBound
import Foundation

/// What `flyr-link --version` prints: the tool, the libraries it runs on (GDAL and PROJ are
/// loaded for it: they are bound only when used, see CLateBound) and the compiled-in link model.
public enum VersionReport {
    public static var text: String {
        [
            "flyr-link \(FlyrLinkVersion.built)",
            "GDAL \(gdalVersion)",
            "GEOS \(String(cString: GEOSversion()))",
            "PROJ \(projVersion)",
            "link model: \(LinkModel.compiledInDescription)",
        ].joined(separator: "\n")
    }

    static var gdalVersion: String {
        do { try GDALEnvironment.ready() } catch { return "not available (\(error.message))" }
        return gdal.GDALVersionInfo("RELEASE_NAME").map { String(cString: $0) } ?? "unknown"
    }

    static var projVersion: String {
        do { try ProjLibrary.ready() } catch { return "not available (\(error.message))" }
        return proj.proj_info().version.map { String(cString: $0) } ?? "unknown"
    }
}

extension FlyrLinkVersion {
    /// The git commit a packaged build recorded (scripts/package-deb.sh); nil for a plain `swift build`.
    public static var commit: String? {
        let commit = String(cString: flyr_build_commit())
        return commit.isEmpty ? nil : commit
    }

    /// What the binary was built from, as `--version` says it. Outputs keep `string` alone, so that
    /// a new commit changes no byte of a run's or a snapshot's.
    public static var built: String { commit.map { "\(string) (commit \($0))" } ?? string }
}
