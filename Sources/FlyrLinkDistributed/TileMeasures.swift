import FlyrLink
import Foundation

/// A file of the run's measures made by tiles (`flyr-link tile measures`, `tile sum`): the plan it
/// was made for (its SHA-256), which of the plan's tiles it sums, and the sums. The link pass
/// takes only the measures of every tile of its own plan.
public struct TileMeasures: Sendable, Codable, Equatable {
    public var plan: String
    public var tiles: [Int]
    public var measures: RunMeasures

    public init(plan: String, tiles: [Int], measures: RunMeasures) {
        self.plan = plan
        self.tiles = tiles
        self.measures = measures
    }

    /// The sum of the parts at `paths`, all of the plan at `path`, one for each of its tiles.
    public static func sum(_ paths: [String], plan path: String) throws(InputError) -> TileMeasures {
        let (plan, digest) = try TilePlan.readWithDigest(path)
        var sum = TileMeasures(plan: digest, tiles: [], measures: RunMeasures())
        var from: [Int: String] = [:]
        for partPath in paths {
            let part = try read(partPath)
            guard part.plan == digest else { throw InputError("measures: \(partPath) was made for another plan than \(path)") }
            for t in part.tiles {
                if let earlier = from[t] { throw InputError("measures: tile \(t)'s part is given twice (\(earlier), \(partPath))") }
                from[t] = partPath
            }
            sum.tiles += part.tiles
            sum.measures.add(part.measures)
        }
        sum.tiles.sort()
        guard sum.tiles == Array(plan.tiles.indices) else {
            let missing = Set(plan.tiles.indices).subtracting(sum.tiles).sorted()
            throw InputError("measures: no part for tile \(missing.map(String.init).joined(separator: ", "))")
        }
        return sum
    }

    public static func read(_ path: String) throws(InputError) -> TileMeasures {
        guard let data = FileManager.default.contents(atPath: path) else { throw InputError("measures: cannot read \(path)") }
        do { return try JSONDecoder().decode(TileMeasures.self, from: data) } catch {
            throw InputError("measures: \(path) is not a tiled run's measures (flyr-link tile measures, tile sum): \(error)")
        }
    }

    /// Written whole or not at all (a temporary sibling, renamed); the same measures give the same bytes.
    public func write(to path: String) throws(OutputError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do { try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw OutputError("measures: cannot write \(path): \(error.localizedDescription)")
        }
    }
}
