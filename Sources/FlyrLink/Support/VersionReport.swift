internal import CGEOS
internal import CLateBound
import Foundation

/// What `flyr-link --version` prints: the tool, the libraries it runs on (GDAL and PROJ are
/// loaded for it: they are bound only when used, see CLateBound) and the compiled-in link model.
public enum VersionReport {
    public static var text: String {
        [
            "flyr-link \(FlyrLinkVersion.string)",
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
