import FlyrLink
/// A distributed run's decisions, read from its tiles' files in `directory` in place of a search:
/// those around `tile` (a tile's outputs pass), or every tile's (the run's outputs).
public struct DistributedDecisions: DecisionSource {
    let directory: String
    let tile: TileTask?

    public init(directory: String, tile: TileTask? = nil) {
        self.directory = directory
        self.tile = tile
    }

    package func decide(_ indexed: consuming IndexedScene, _ addressRows: consuming CompressedRows<AddressPoint>, buildingRows: CompressedRows<Building>,
                accessory: [Bool], options: RunOptions, pool: WorkerPool) throws -> MatchedAddresses {
        let scene = indexed.scene
        BackgroundRelease.dropAndTrim(consume indexed)  // (the grid, before the decisions are read; the scene serves the split)
        let addresses = (consume addressRows).decompressed(pool: pool)
        let buildingIDs = buildingRows.map(pool: pool) { $1.id }
        let decided = if let tile {
            try TileDecisions.around(tile, directory, addressIDs: addresses.map(\.id), buildingIDs: buildingIDs)
        } else {
            try TileDecisions.merged(directory, options: options, addressIDs: addresses.map(\.id), buildingIDs: buildingIDs)
        }
        return MatchedAddresses(decided, addresses: addresses, cutFrom: consume scene, pool: pool)
    }
}
