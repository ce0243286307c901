import ArgumentParser
import FlyrLink
import Foundation

/// `flyr-link snapshot`: regenerate campaign snapshots; `flyr-link snapshot diff A B`: compare two versions.
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Regenerate a campaign's snapshot (ROOT/<campaign>/<version>/, `current` switched atomically).",
        usage: """
        flyr-link snapshot --campaign UUID --territory SRC --buildings SRC --addresses SRC [--roads SRC] --root DIR [--keep N]
        flyr-link snapshot PIPELINE.toml [options]
        flyr-link snapshot diff VERSION_DIR VERSION_DIR
        """,
        subcommands: [SnapshotBuildCommand.self, SnapshotDiffCommand.self],
        defaultSubcommand: SnapshotBuildCommand.self
    )
}

struct SnapshotBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Cut buildings and addresses to the territory, link them and publish a new version if anything changed.",
        discussion: """
        flyr-link snapshot --campaign UUID --territory SRC --buildings SRC --addresses SRC [--roads SRC] --root DIR
        flyr-link snapshot pipelines/FILE.toml   (every [[campaigns]] entry of the file; options override the file)
        """
    )

    @Argument(help: "A snapshot pipeline file (TOML) with [[campaigns]] entries.")
    var pipeline: String?

    @OptionGroup var sources: SourceOptions

    @OptionGroup var linking: LinkingOptions

    @Option(help: "Campaign UUID (the directory under --root and the links' campaign id).")
    var campaign: String?

    @Option(help: "Road lines to clip to the territory (roads.geojson.gz).")
    var roads: String?

    @Option(help: "Layer of the roads source (OSM: lines).")
    var roadsLayer: String?

    @Option(help: "Snapshot root: versions go to ROOT/<campaign>/.")
    var root: String?

    @Option(help: "Keep this many versions, pruning older ones (never `current`).")
    var keep: Int?

    @Option(help: "An address keeps its previous building unless the new one is better by more than this many metres (default \(LinkOptions.defaultStickyMargin)).")
    var stickyMargin: Double?


    func validate() throws {
        if let keep, let why = OptionLimits.countProblem("--keep", keep, maximum: OptionLimits.versionsKept) { throw ValidationError(why) }
        if let stickyMargin, let why = OptionLimits.distanceProblem("--sticky-margin", stickyMargin) { throw ValidationError(why) }
    }

    func run() throws {
        let requests: [SnapshotRequest]
        do {
            requests = try makeRequests()
        } catch {
            CLIError.exit(with: error)
        }
        var failed = 0
        for request in requests {
            do {
                let progress = linking.progress
                let result = try Snapshotter.regenerate(request, observer: progress.observer)
                // A version made: its report's warnings, as `run` gives them (report.json holds them too).
                let prefix = requests.count > 1 ? "campaign \(request.campaign): " : ""
                for w in result.linkRun?.report.warnings ?? [] { StandardError.line("warning: \(prefix)\(w.message)") }
                print(SnapshotSummaryText.make(result))
            } catch {
                failed += 1
                let message = ConnectionSecrets.masked(String(describing: error))
                let prefix = requests.count > 1 ? "campaign \(request.campaign): " : ""
                FileHandle.standardError.write(Data("flyr-link: error: \(prefix)\(message.replacingOccurrences(of: "\n", with: " "))\n".utf8))
            }
        }
        if failed > 0 { throw ExitCode(1) }
    }

    func makeRequests() throws -> [SnapshotRequest] {
        var flags = RunRequest()
        sources.apply(to: &flags)
        linking.apply(to: &flags)
        func apply(_ r: inout SnapshotRequest) {
            if let root { r.root = root }
            if let roads { r.roads = SourceSpec.parse(roads, layer: roadsLayer) }
            if let keep { r.keep = keep }
            if let stickyMargin { r.stickyMargin = stickyMargin }
        }
        if let pipeline {
            var requests = try SnapshotPipelineFile.load(pipeline)
            if let campaign { requests = requests.filter { $0.campaign.lowercased() == campaign.lowercased() } }
            guard !requests.isEmpty else { throw ValidationError("\(pipeline) has no campaign \(campaign ?? "")") }
            for i in requests.indices {
                requests[i].settings = flags.merged(over: requests[i].settings)
                apply(&requests[i])
            }
            return requests
        }
        guard let campaign else { throw InputError("no campaign: give --campaign UUID (or a pipeline file)") }
        guard let root else { throw InputError("no snapshot root: give --root DIR") }
        var r = SnapshotRequest(campaign: campaign, root: root, settings: flags)
        apply(&r)
        return [r]
    }
}

struct SnapshotDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Summarise what changed between two snapshot versions (directories, e.g. ROOT/<campaign>/v000001 ROOT/<campaign>/current)."
    )

    @Argument(help: "The older version directory.")
    var from: String

    @Argument(help: "The newer version directory.")
    var to: String

    @Flag(help: "Print the whole diff as JSON instead of a summary.")
    var json = false

    func run() throws {
        do {
            for dir in [from, to] where !FileManager.default.fileExists(atPath: dir + "/links.csv") {
                throw InputError("\(dir) is not a snapshot version (no links.csv)")
            }
            let diff = try SnapshotDiff.compute(from: URL(fileURLWithPath: from), to: URL(fileURLWithPath: to))
            if json {
                let e = JSONEncoder()
                e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                e.keyEncodingStrategy = .convertToSnakeCase
                print(String(decoding: try e.encode(diff), as: UTF8.self))
            } else {
                print(diff.summary())
            }
        } catch {
            CLIError.exit(with: error)
        }
    }
}

enum SnapshotSummaryText {
    static func make(_ r: SnapshotResult) -> String {
        switch r.outcome {
        case .unchanged:
            var s = "flyr-link: campaign \(r.campaign): inputs and options unchanged since \(r.version); no new version made"
            if !r.pruned.isEmpty { s += "\n  pruned: \(r.pruned.joined(separator: ", "))" }
            return s
        case .created:
            let c = r.manifest.counts
            var lines = ["flyr-link: campaign \(r.campaign): \(r.version) created" + (r.previous.map { " (previous \($0))" } ?? "")
                         + " and is now current",
                         "  \(c.addresses) addresses → \(c.links) linked, \(c.unlinked) unlinked; \(c.buildings) buildings, \(c.units) units"
                         + (c.roads.map { ", \($0) roads" } ?? "")]
            if let d = r.diff {
                lines += d.summary().split(separator: "\n").dropFirst().map(String.init)
            }
            if !r.pruned.isEmpty { lines.append("  pruned: \(r.pruned.joined(separator: ", "))") }
            lines.append("  version: \(r.directory)")
            return lines.joined(separator: "\n")
        }
    }
}
