import FlyrLink
import Foundation

/// One pass of one tile of a distributed run (`flyr-link tile`): the sources read as a run reads
/// them, cut to the tile and its halo; `decisions`: the directory of the tiles' decisions.
public struct TileRunner {
    public let options: RunOptions
    public let task: TileTask
    public let decisions: String?
    var pipeline: LinkPipeline { LinkPipeline(options: options) }

    public init(options: RunOptions, task: TileTask, decisions: String?) {
        self.options = options
        self.task = task
        self.decisions = decisions
    }

    /// What a tile's pass gives: its own addresses' part of the run's measures, or their decisions.
    public enum TileOutput: Sendable {
        case measures(RunMeasures)
        case decisions(TileDecisions)
    }

    /// The measures or link pass: the evidence of every address kept made; of its own addresses,
    /// the part of the run's measures, or (given the run's measures) the decisions.
    public func run() throws -> TileOutput {
        try options.validate()
        let pipeline = self.pipeline
        guard options.link.strategy == .flyr, options.previousLinks.isEmpty, options.evidencePath == nil, !pipeline.writesRecords else {
            throw InputError("tile: a tile links with the link model, writes links only, and takes no previous links or evidence file")
        }
        let model = try pipeline.linkModel().get()
        let clock = LinkPipeline.Clock()
        let pool = WorkerPool(threads: options.threads)
        let (indexed, accessory, addressRows, _, scope) = try scene(clock, pool)
        let running = pipeline.start(.match, clock)
        let (evidence, _) = LinkModelDecisions.evidence(consume indexed, addressRows: addressRows, accessory: accessory, options: options.link,
                                                        measures: task.measures, counted: scope.own, pool: pool)
        switch task.pass {
        case .measures:
            let part = evidence.measuresPart
            return running.finish(.measures(part), "tile \(task.tile.index): measures of \(part.addresses) addresses", items: scope.own.count)
        case .outputs:
            throw InputError("tile \(task.tile.index): the outputs pass is writeParts")
        case .link:
            guard task.measures != nil else { throw InputError("tile \(task.tile.index): the link pass needs the run's measures") }
            let decided = LinkDecision.decide(consume evidence, model: model, options: options.link, previous: nil, pool: pool)
            return running.finish(.decisions(scope.decisions(decided, tile: task.tile.index)), "tile \(task.tile.index): decided",
                                  items: scope.own.count)
        }
    }

    /// The outputs pass (`TileParts`): the tile read as its link pass read it, every address kept
    /// given its decision from the tiles' files in `decisions`, split and assembled as one run is,
    /// and the rows of its own addresses and buildings written into `directory`. `plan`: the plan's SHA-256.
    public func writeParts(plan: String, to directory: String) throws {
        try options.validate()
        let pipeline = self.pipeline
        guard task.pass == .outputs, let decisions else {
            throw InputError("tile: the outputs pass needs a tile and the tiles' decisions")
        }
        guard PostgresTarget.conninfo(from: options.output) == nil else { throw InputError("tile: the outputs pass writes files") }
        let clock = LinkPipeline.Clock()
        let pool = WorkerPool(threads: options.threads)
        let (indexed, accessory, addressRows, records, scope) = try scene(clock, pool)
        let matched = try pipeline.matchStage(consume indexed, consume addressRows, buildingRows: records.buildingRows, accessory: accessory,
                                     deciding: DistributedDecisions(directory: decisions, tile: task), clock, pool)
        let linked = pipeline.splitStage(consume matched, buildingRows: records.buildingRows, frame: task.frame, clock, pool)
        let run = pipeline.assembledRun(consume linked, consume records, rejects: [], frame: task.frame, pool: pool)
        try pipeline.stage(.write, clock, "tile \(task.tile.index)") {
            try TileParts.write(run, scope: scope, accessory: accessory, tile: task.tile.index, plan: plan, to: directory)
            return ((), "tile \(task.tile.index): parts")
        }
    }

    /// What a tile's pass reads: the sources within its read box (or its packs), in the plan's
    /// frame, cut to the tile's scope and indexed.
    func scene(_ clock: LinkPipeline.Clock, _ pool: WorkerPool) throws
        -> (indexed: IndexedScene, accessory: [Bool], addressRows: CompressedRows<AddressPoint>, records: FramedRecords, scope: TileScope) {
        let pipeline = self.pipeline
        let packed = task.packs.isEmpty ? nil : TilePacks(task)
        let ingested = try pipeline.ingestStage(pipeline.readStage(clock, pool, within: task.readBox, packed: packed), clock, pool)
        let (framed, addressRows, framedRecords) = pipeline.frameStage(consume ingested, frame: task.frame, clock, pool)
        let (metric, records, scope) = TileScope.cut(task, consume framed, consume framedRecords, addressRows: addressRows, pool: pool)
        let (indexed, accessory) = pipeline.indexStage(consume metric, clock, pool)
        return (indexed, accessory, addressRows, records, scope)
    }
}

extension TileScope {
    /// The own addresses' outcomes, by id, in the run's (id) order.
    func decisions(_ decided: (links: [Link], unlinked: [UnlinkedReason?]), tile: Int) -> TileDecisions {
        var outcomes: [TileDecisions.Outcome] = []
        var links = decided.links.makeIterator(), next = links.next()
        for (a, reason) in decided.unlinked.enumerated() {
            // (The links are in address order, one for each address without a reason.)
            var outcome = TileDecisions.Outcome(address: addressIDs[a], building: nil, method: .proximity, confidence: 0, distance: 0,
                                                unlinked: reason)
            if reason == nil, let l = next {
                precondition(l.addressIndex == a, "one link for each address without an unlinked reason")
                outcome = .init(address: addressIDs[a], building: buildingIDs[l.buildingIndex], method: l.method, confidence: l.confidence,
                                distance: l.distance, unlinked: nil)
                next = links.next()
            }
            if own[a] { outcomes.append(outcome) }
        }
        return TileDecisions(tile: tile, outcomes: outcomes)
    }
}
