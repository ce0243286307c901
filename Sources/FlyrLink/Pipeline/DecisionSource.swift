import Foundation

/// What decides each address's link in the match stage: the link model over the candidates'
/// evidence, the naive baseline, or decisions made elsewhere (a distributed run's tiles).
package protocol DecisionSource {
    /// Each address's link or why it has none, with the scene of the rows linked twice. Frees the
    /// scene and its grid once read, and the compressed address rows once decompressed.
    func decide(_ indexed: consuming IndexedScene, _ addressRows: consuming CompressedRows<AddressPoint>, buildingRows: CompressedRows<Building>,
                accessory: [Bool], options: RunOptions, pool: WorkerPool) throws -> MatchedAddresses
}

extension LinkPipeline {
    /// The run's decision source: the one it was given (a distributed run's decisions), the naive
    /// baseline (`--matcher naive`), else the link model.
    func decisionSource() throws -> any DecisionSource {
        if let decisions { return decisions }
        if options.link.strategy == .naive { return NaiveDecisions() }
        var model = try linkModel()
        if options.evidencePath != nil, case .failure(let error) = model {
            // Only in a build whose features changed since the model was fitted: the evidence is
            // what the re-fit reads, so it is still written, and the links are the nearest building's.
            FileHandle.standardError.write(Data("flyr-link: warning: \(error.message); this run links each address to its nearest candidate\n".utf8))
            model = .success(LinkModel.neutral)
        }
        return LinkModelDecisions(model: try model.get(), evidencePath: options.evidencePath)
    }

    /// The run's link model: `--link-model`'s file (an error if it cannot be read), or the
    /// compiled-in one (a failure when this build's features differ from the model's).
    package func linkModel() throws(InputError) -> Result<LinkModel, InputError> {
        try options.linkModelPath.map { path throws(InputError) in .success(try LinkModel(path: path)) } ?? LinkModel.compiledIn
    }
}
