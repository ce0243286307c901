import ArgumentParser
import FlyrLink
import FlyrLinkDistributed
import Foundation

/// `flyr-link plan-share`: the steps of a plan made on a cluster from shares of GeoParquet
/// sources (docs/distributed.md, "The plan from shares").
struct PlanShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan-share",
        abstract: "A plan made from shares of the sources' row groups: scan each share, frame, measure each share, then plan --shares.",
        discussion: "For GeoParquet sources: for K in 0..<N, plan-share scan --share K/N --shares DIR; plan-share frame --count N --shares DIR (or, if it says the sources must be read whole, flyr-link plan as usual); for K in 0..<N, plan-share measure --share K/N --shares DIR; then flyr-link plan --shares DIR. Every step takes the run's sources and options.",
        subcommands: [Scan.self, Frame.self, Measure.self]
    )

    /// A share and the directory of the shares' files.
    struct ShareOptions: ParsableArguments {
        @Option(help: "The share of the sources' row groups: K/N (0 ≤ K < N).")
        var share: String

        @Option(help: "The directory of the shares' files (every worker sees it).")
        var shares: String

        func validate() throws {
            if SourceShare(share) == nil { throw ValidationError("--share takes K/N, 0 ≤ K < N ≤ \(OptionLimits.shares)") }
        }

        var parsed: SourceShare { SourceShare(share)! }
    }

    struct Scan: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read one share's rows as a run ingests them: its counts, extents, rejects and ids.")

        @OptionGroup var sources: PlanSourcesOptions
        @OptionGroup var share: ShareOptions

        func run() throws {
            do {
                try Planner(sources.pipeline(out: share.shares)).scanShare(share.parsed, to: PlanShares.scanPath(share.shares, share.parsed.index))
            } catch {
                CLIError.exit(with: error)
            }
        }
    }

    struct Frame: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The run's frame from every share's scan (frame.json), or why the plan must read the sources whole.",
            discussion: "Prints `frame` or `whole: WHY`; exits 0 either way.")

        @OptionGroup var sources: PlanSourcesOptions

        @Option(help: "How many shares were scanned.")
        var count: Int

        @Option(help: "The directory of the shares' files.")
        var shares: String

        func validate() throws {
            if let why = OptionLimits.countProblem("--count", count, maximum: OptionLimits.shares) { throw ValidationError(why) }
        }

        func run() throws {
            do {
                let verdict = try PlanShares.frame(directory: shares, shares: count, options: sources.options(out: shares))
                try verdict.write(to: PlanShares.framePath(shares))
                print(verdict.whole.map { "whole: \($0)" } ?? "frame")
            } catch {
                CLIError.exit(with: error)
            }
        }
    }

    struct Measure: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Read one share again in the run's frame: repairs, the territory's counts, heights, a sample of the points, the cells' longest buildings.")

        @OptionGroup var sources: PlanSourcesOptions
        @OptionGroup var share: ShareOptions

        func run() throws {
            do {
                let k = share.parsed
                try Planner(sources.pipeline(out: share.shares)).measureShare(k, frame: PlanShares.framePath(share.shares), to: PlanShares.measurePath(share.shares, k.index))
            } catch {
                CLIError.exit(with: error)
            }
        }
    }
}
