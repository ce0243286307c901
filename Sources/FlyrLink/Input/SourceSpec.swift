import Foundation

/// What a run reads for one role: a GDAL/GeoParquet location, optionally a layer and a CRS override.
public struct SourceSpec: Sendable, Hashable, Codable {
    public var location: String
    public var layer: String?
    /// A CRS to use instead of the source's own (or for a source that has none), e.g. "EPSG:25832".
    public var crs: String?

    public init(location: String, layer: String? = nil, crs: String? = nil) {
        self.location = location
        self.layer = layer
        self.crs = crs
    }

    /// Parses `path` or `path:layer` (`PG:` connection strings and URLs are never split).
    /// An explicit `layer` wins over one in the string.
    public static func parse(_ text: String, layer: String? = nil, crs: String? = nil) -> SourceSpec {
        if text.hasPrefix("PG:") || text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") || RemoteLocation.isRemote(text) {
            return SourceSpec(location: text, layer: layer, crs: crs)
        }
        if !FileManager.default.fileExists(atPath: text), let colon = text.lastIndex(of: ":") {
            let path = String(text[..<colon])
            let name = String(text[text.index(after: colon)...])
            if !name.isEmpty, !name.contains("/"), FileManager.default.fileExists(atPath: path) {
                return SourceSpec(location: path, layer: layer ?? name, crs: crs)
            }
        }
        return SourceSpec(location: text, layer: layer, crs: crs)
    }

    /// The source as given, any password masked (`ConnectionSecrets`): what messages, reports and
    /// manifests show.
    public var description: String { layer.map { "\(ConnectionSecrets.masked(location)):\($0)" } ?? ConnectionSecrets.masked(location) }

    /// The source as `description` gives it, but a local file or directory named by its canonical
    /// absolute path (`realpath`: `city/x.fgb`, `./city/x.fgb`, a symbolic link and the absolute
    /// path are one source), so that what is derived from it — the default campaign id, and with
    /// it every link id — does not depend on how the path was typed or where the run started.
    /// Anything else (`PG:`, a `/vsi…` path, a missing file) as given, any password masked.
    public var canonicalDescription: String {
        guard let resolved = realpath(location, nil) else { return description }
        defer { free(resolved) }
        let path = String(cString: resolved)
        return layer.map { "\(path):\($0)" } ?? path
    }

    var isGeoParquet: Bool {
        if RemoteLocation(location)?.isPrefix == true { return true }   // a partitioned dataset on S3
        // ... or in a local directory (one that cannot be walked too: the GeoParquet reader says why).
        if LocalSource.kind(location) == .directory {
            do throws(InputError) { if try LocalSource.parquetParts(location)?.isEmpty == false { return true } } catch { return true }
        }
        let lower = (RemoteLocation(location)?.pathForExtension ?? location).lowercased()
        return lower.hasSuffix(".parquet") || lower.hasSuffix(".geoparquet")
    }
}

extension SourceSpec {
    /// The same source with a local file or directory named by its canonical absolute path: a
    /// plan is read by tasks that run elsewhere.
    package var resolved: SourceSpec {
        guard let path = realpath(location, nil) else { return self }
        defer { free(path) }
        var r = self
        r.location = String(cString: path)
        return r
    }
}
