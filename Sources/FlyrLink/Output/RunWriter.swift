import Foundation

/// Writes a run's output directory: the files and columns DESIGN.md names, staged and then
/// swapped into place as a whole.
public enum RunWriter {
    /// The directory format's files (`OutputTarget` recognises output of versions before the marker by them).
    public static let files = ["links.csv", "addresses.geojson", "buildings.geojson", "units.geojson",
                               "features.geojson", "rejects.csv", "report.json", "report.html"]

    /// `observer`: told when report.html is drawn, and how long it took.
    public static func write(_ run: LinkRun, observer: PipelineObserver? = nil) throws {
        // A layer of rejects only: fail before anything is written (unless --allow-empty).
        try EmptyLayerCheck.check(run)
        // `--out postgresql://…` or `PG:…`: the campaign's tables in that database (Postgres/).
        if let conninfo = PostgresTarget.conninfo(from: run.options.output) {
            _ = try PGCampaignWriter.write(run, conninfo: conninfo)
            return
        }
        let format = run.options.format
        let dir = try OutputDirectory(path: run.options.output, overwrite: run.options.overwrite,
                                      inputs: run.options.inputLocations, format: format)
        do {
            // Every format starts as the directory's files: the others are converted from them
            // (GDAL reads them back), so they hold the same values.
            try writeLinks(run, to: dir.path("links.csv"))
            try writeRejects(run.rejects, to: dir.path("rejects.csv"))
            if run.options.only == .all {
                try writeAddresses(run, to: dir.path("addresses.geojson"))
                try FootprintOutputs.write(run, buildings: dir.path("buildings.geojson"), units: dir.path("units.geojson"),
                                           features: dir.path("features.geojson"))
            }
            try writeReport(run.report, to: dir.path("report.json"))
            // Inside the staging directory: the page is swapped into place with the files it shows
            // (a directory format's; a GeoPackage is one file, without the page).
            if run.options.writeHTML, format != .gpkg { try ReportFile.write(run, to: dir.path(ReportFile.name), observer: observer) }
            let all = run.options.only == .all
            switch format {
            case .dir: break
            case .fgb: if all { try FlatGeobufOutput.convert(dir, threads: run.options.threads) }
            case .parquet: if all { try GeoParquetOutput.convert(dir, threads: run.options.threads) }
            case .gpkg: try GeoPackageOutput.write(only: run.options.only, staged: dir, to: dir.path(geoPackageName))
            }
        } catch {
            throw dir.namingTarget(error)
        }
        TestPause.point("staged")
        if format == .gpkg { try dir.commitFile(geoPackageName) } else { try dir.commit() }
    }

    /// The GeoPackage's name in its staging directory, until `commitFile` renames it into place.
    package static let geoPackageName = "output.gpkg"

    static func decimals(_ v: Double, _ d: Int) -> String { OutputNumber.fixed(v, d) }

    static let rejectsHeader = ["layer", "source_row", "id", "reason"]
    package static let linksHeader = ["id", "campaign_id", "building_id", "address_id", "unit_id", "match_method", "is_primary", "confidence",
                              "distance_m"]

    package static func writeLinks(_ run: LinkRun, to path: String) throws {
        let csv = try CSVWriter(path: path, header: linksHeader)
        // Rows (with their SHA-1 based link ids) are formatted straight into bytes on all workers,
        // written in order: a million rows of field arrays and number strings cost more than the hashing.
        // The campaign's field as bytes made once (a shared String would be retained per row).
        var campaignField: [UInt8] = []
        CSVWriter.appendField(run.campaignID, to: &campaignField)
        campaignField.withUnsafeBufferPointer { campaign in
            run.withLinkIDs { appendLinkID in
                csv.formattedRows(run.links.count, pool: WorkerPool(threads: run.options.threads)) { i, b in
                    let l = run.links[i]
                    guard run.writes(building: l.buildingIndex) else { return }
                    let comma = UInt8(ascii: ",")
                    run.buildings[l.buildingIndex].withIDUTF8 { building in
                        run.addresses[l.addressIndex].withIDUTF8 { address in
                            appendLinkID(building, address, &b); b.append(comma)  // hex and dashes: never quoted
                            b.append(contentsOf: campaign); b.append(comma)
                            CSVWriter.appendField(utf8: building, to: &b); b.append(comma)
                            CSVWriter.appendField(utf8: address, to: &b); b.append(comma)
                        }
                    }
                    if let u = l.unitIndex { run.units[u].appendID(to: &b) }  // hex and dashes: never quoted
                    b.append(comma)
                    b.append(contentsOf: l.method.rawValue.utf8); b.append(comma)
                    b.append(contentsOf: (l.isPrimary ? "true" : "false").utf8); b.append(comma)
                    OutputNumber.append(l.confidence, 3, to: &b); b.append(comma)
                    OutputNumber.append(l.distance, 2, to: &b)
                    b.append(0x0A)
                }
            }
        }
        try csv.close()
    }

    package static func writeRejects(_ rejects: [Reject], to path: String) throws {
        let csv = try CSVWriter(path: path, header: rejectsHeader)
        for r in rejects { csv.row([r.layer, String(r.sourceRow), r.id, r.reason]) }
        try csv.close()
    }

    package static func writeAddresses(_ run: LinkRun, to path: String) throws {
        let out = try GeoJSONWriter(path: path)
        // The fields' keys as JSON strings, made once and read in place (an array per key, read
        // by both workers for every address, had its reference count raised and dropped from both cores).
        // (In `AddressField.position` order: AddressField's order.)
        var keyBytes: [UInt8] = [], keyEnds: [Int] = []
        for f in AddressField.allCases {
            JSONText.appendString(f.rawValue, to: &keyBytes)
            keyEnds.append(keyBytes.count)
        }
        let pool = WorkerPool(threads: run.options.threads)
        keyBytes.withUnsafeBufferPointer { keys in
            keyEnds.withUnsafeBufferPointer { ends in writeAddresses(run, to: out, pool: pool, keys: keys, keyEnds: ends) }
        }
        try out.close()
    }

    private static func writeAddresses(_ run: LinkRun, to out: GeoJSONWriter, pool: WorkerPool,
                                       keys: UnsafeBufferPointer<UInt8>, keyEnds: UnsafeBufferPointer<Int>) {
        out.features(run.addresses.count, pool: pool) { i, emit in
            guard run.writes(address: i) else { return }
            let a = run.addresses[i]
            let link = run.linkOfAddress[i].map { run.links[$0] }
            emit(a.id, run.location(ofAddress: i).map(OutputGeometry.point)) { p in
                func key(_ k: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: keys[(k == 0 ? 0 : keyEnds[k - 1])..<keyEnds[k]]) }
                a.forEachFieldUTF8 { k, u in p.text(quotedKey: key(k), utf8: u) }
                p.text("building_id", link.map { run.buildings[$0.buildingIndex].id })
                p.text("unit_id", link?.unitIndex.map { run.units[$0].id })
                p.text("match_method", link?.method.rawValue)
                p.number("confidence", link?.confidence, decimals: 3)
                p.number("distance_m", link?.distance, decimals: 2)
                p.text("unlinked_reason", run.unlinkedReason[i])
            }
        }
    }

    static func unitCounts(_ run: LinkRun) -> [Int] {
        var counts = [Int](repeating: 0, count: run.buildings.count)
        for u in run.units { counts[u.buildingIndex] += 1 }
        return counts
    }

    /// Reads what `writeReport` wrote. Foundation's `convertFromSnakeCase` is not the inverse of
    /// `convertToSnakeCase` for acronyms (`campaign_id` would come back as `campaignId`, not
    /// `campaignID`): the property names are made here, `…Id` read as `…ID`. (Dictionary keys, such
    /// as the options', are not converted either way.)
    static func reportDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let parts = path.last!.stringValue.split(separator: "_", omittingEmptySubsequences: false)
            var name = String(parts.first ?? "")
            for p in parts.dropFirst() { name += p.prefix(1).uppercased() + p.dropFirst() }
            if name.hasSuffix("Id") { name = String(name.dropLast(2)) + "ID" }
            return ReportKey(stringValue: name)
        }
        return decoder
    }

    private struct ReportKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package static func writeReport(_ report: RunReport, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var data = try encoder.encode(report)
        data.append(0x0A)
        guard FileManager.default.createFile(atPath: path, contents: data) else { throw OutputError("cannot write \(path)") }
    }
}
