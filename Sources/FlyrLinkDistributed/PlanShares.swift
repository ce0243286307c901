import FlyrLink
import Foundation

/// What a plan made on the cluster learns from each share of its sources (`SourceShare`), in two
/// passes of Spark tasks, so that no process reads a source whole (docs/distributed.md, "The plan
/// from shares"):
/// - the scan: each share's rows ingested as a run ingests them; what is kept is what adds up
///   (counts, lon/lat extents, rejects) and the accepted ids' hashes, sorted, for the repeats;
/// - the frame, on the driver: the run's frame from the extents, or why the plan must be made
///   from a whole read (`Frame.whole`) — what a share cannot decide alone;
/// - the measure: each share again, in the frame: repairs, the territory's counts, the heights
///   (sorted, for the feet warning's order statistics), a sample of the points for the cut, and
///   the longest building box per cell for the halos.
/// The plan (`Planner.plan(tiles:shares:)`) then says of the sources exactly what a plan
/// from a whole read says; only its cut (from the sample) and halos (from cells, never narrower)
/// differ, and the outputs do not depend on either.
public enum PlanShares {
    static let version = 1
    /// The most points the cut is made from: more addresses are sampled, every `stride`-th row.
    static let sampleLimit = 4_000_000
    /// The cells whose longest building box the halos read (metres; a tile's halo is about this).
    static let cellSize = 500.0

    /// A share's file names in the shares' directory (`K` in six digits).
    public static func scanPath(_ directory: String, _ share: Int) -> String { directory + "/scan-\(String(format: "%06d", share)).json" }
    public static func measurePath(_ directory: String, _ share: Int) -> String { directory + "/measure-\(String(format: "%06d", share)).json" }
    public static func framePath(_ directory: String) -> String { directory + "/frame.json" }
    /// The sorted words beside a share's file (`Words`).
    static func wordsPath(_ path: String) -> String { path + ".words" }

    /// What the scan of one share learnt of one layer.
    public struct LayerScan: Sendable, Codable {
        var source: LinkPipeline.SourceSummary
        var crs: String
        var crsAssumed: Bool
        var generatedIDs: Int
        var accepted: Int
        /// The accepted rows' lon/lat box.
        var extent: BBox
        var rejects: [Reject]
        /// Whether an id repeats within the share (its rows' rejects say so).
        var repeats: Bool
    }

    /// The first pass over one share.
    public struct Scan: Sendable, Codable {
        var version = PlanShares.version
        var share: SourceShare
        /// The SHA-256 of the run's options: every share and step of one plan has the same.
        var options: String
        /// The inputs' sizes and times when the share was read.
        var inputs: [TilePlan.InputFile]
        /// Whether a whole read would read both sources with the reader a share reads them with
        /// (flyr-link's GeoParquet reader: not GDAL's, which `--parquet-reader auto` takes for a
        /// local file where GDAL has a Parquet driver).
        var wholeReadsInShares: Bool
        var territoryBox: BBox?
        var buildings: LayerScan
        var addresses: LayerScan
        /// How many words of the sidecar are the buildings' id hashes (two words an id); the
        /// addresses' follow.
        var buildingIDWords: Int
    }

    /// The driver's verdict on the scans: the run's frame, or why the plan reads the sources whole.
    public struct Frame: Sendable, Codable {
        var version = PlanShares.version
        var shares: Int
        var options: String
        public var frame: LocalMetricFrame?
        /// Why the shares cannot decide the plan (nil when they can).
        public var whole: String?
        /// Every `sampleStride`-th address row (by its number in the source) is in the cut's sample.
        var sampleStride: Int
    }

    /// A cell of `cellSize` and the longest box diagonal of the buildings that meet it.
    struct CellLongest: Sendable, Codable, Equatable {
        var x: Int32
        var y: Int32
        var longest: Double
    }

    /// The second pass over one share, in the frame.
    public struct Measure: Sendable, Codable {
        var version = PlanShares.version
        var share: SourceShare
        /// The SHA-256 of the frame file it was measured in.
        var frame: String
        /// The inputs' sizes and times when the share was read again.
        var inputs: [TilePlan.InputFile]
        var buildings: Int
        var addresses: Int
        var repaired: Int
        var outsideBuildings: Int
        var outsideAddresses: Int
        /// The buildings' rejects: the ingest's, then those the frame finds unusable.
        var buildingRejects: [Reject]
        /// The points' and footprint boxes' box in the frame.
        var extent: BBox
        var cells: [CellLongest]
        /// The boxes over too many cells to note in each (`Cells`).
        var oversized: [BBox]
        /// The sidecar's sections: the heights, the heights per level (each sorted), and the
        /// sample's points (row number, x, y).
        var heights: Int
        var perLevel: Int
        var sample: Int
    }

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.nonConformingFloatEncodingStrategy = TilePlan.nonFinite.encoding
        return e
    }

    /// `value` as JSON at `path`, and `words` beside it: each written to a temporary sibling and
    /// renamed, the words first, so that a share's JSON is there only when its words are.
    static func write<T: Encodable>(_ value: T, words: [UInt64], to path: String) throws(OutputError) {
        let data: Data
        do { data = try encoder().encode(value) } catch { throw OutputError("plan: cannot encode \(path): \(error)") }
        for (bytes, target) in [(words.withUnsafeBytes { [UInt8]($0) }, wordsPath(path)), ([UInt8](data), path)] {
            // (Unique: two attempts of one share, on two machines, may have the same pid.)
            let temporary = target + ".tmp-\(UUID().uuidString)"
            do throws(OutputError) {
                try ByteWriter.write(bytes, to: temporary)
                guard rename(temporary, target) == 0 else { throw OutputError("plan: cannot write \(target): \(String(cString: strerror(errno)))") }
            } catch {
                unlink(temporary)
                throw error
            }
        }
    }

    static func read<T: Decodable>(_ type: T.Type, _ path: String, what: String) throws(InputError) -> T {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("plan: cannot read \(path) (\(what))") }
        return try decode(type, data, path, what: what)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data, _ path: String, what: String) throws(InputError) -> T {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = TilePlan.nonFinite.decoding
        do { return try decoder.decode(T.self, from: data) } catch {
            throw InputError("plan: \(path) is not a plan's \(what) (flyr-link plan-share): \(error)")
        }
    }

    /// The SHA-256 of the options that decide what a share reads (the sources, their fields and
    /// units, the reader): the steps of one plan agree on them, whatever else each is given.
    static func digest(_ options: RunOptions) -> String {
        struct Reading: Encodable {
            var buildings: SourceSpec, addresses: SourceSpec, territory: SourceSpec?, fields: FieldMapping
            var parquetReader: RunOptions.ParquetReader, heightUnit: RunOptions.HeightUnit?
        }
        let o = options.resolvingPaths
        let reading = Reading(buildings: o.buildings, addresses: o.addresses, territory: o.territory, fields: o.fields,
                              parquetReader: o.parquetReader, heightUnit: o.heightUnit)
        return SHA256.hash([UInt8]((try? encoder().encode(reading)) ?? Data()))
    }

    /// An id's two 64-bit hashes (FNV-1a from two offsets): two ids with the same pair are taken
    /// for a repeat, and the plan is then made from a whole read, which tells.
    static func idHash(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x6c62_272e_07bb_0142
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return (a, b)
    }

    /// Pairs of words sorted, flattened.
    static func sortedPairs(_ pairs: [(UInt64, UInt64)]) -> [UInt64] {
        var words: [UInt64] = []
        words.reserveCapacity(2 * pairs.count)
        for (a, b) in pairs.sorted(by: <) {
            words.append(a)
            words.append(b)
        }
        return words
    }

    /// The rows' ids' hashes (`idHash`, read where the ids are kept), sorted and flattened.
    static func sortedIDHashes<Row: Ingest.Identified>(_ rows: [Row]) -> [UInt64] {
        sortedPairs(rows.map { $0.withIDUTF8(idHash) })
    }
}

extension PlanShares.Frame {
    /// Written whole or not at all (it names no words: an empty sidecar beside it).
    public func write(to path: String) throws(OutputError) {
        try PlanShares.write(self, words: [], to: path)
    }

    /// The frame file and the SHA-256 of its bytes (what a measure names).
    static func read(_ path: String) throws(InputError) -> (PlanShares.Frame, digest: String) {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("plan: cannot read \(path) (the shares' frame)") }
        return (try PlanShares.decode(PlanShares.Frame.self, data, path, what: "frame"), SHA256.hash([UInt8](data)))
    }
}
