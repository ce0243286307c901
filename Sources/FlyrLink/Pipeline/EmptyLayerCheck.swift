/// A run in which a layer has no features, or every feature was rejected (lines or points given as
/// buildings, polygons as addresses, one file given for both roles), is almost always a mistake (a
/// failed export, a wrong layer): it fails before anything is written, so the previous output or
/// campaign stays, unless the user asked for an empty campaign (`--allow-empty`, `allow_empty`).
public enum EmptyLayerCheck {
    public static func check(_ run: LinkRun) throws(InputError) {
        try check(run.options, buildings: run.buildings.count, addresses: run.addresses.count, counts: run.report.counts, rejects: run.rejects)
    }

    /// (A distributed run's plan checks the same, before any tile runs.)
    package static func check(_ options: RunOptions, buildings: Int, addresses: Int, counts: RunReport.Counts, rejects: [Reject]) throws(InputError) {
        guard !options.allowEmpty else { return }
        let layers = [("buildings", options.buildings, buildings, counts.buildingsOutsideTerritory),
                      ("addresses", options.addresses, addresses, counts.outsideTerritory)]
        for (layer, spec, accepted, outside) in layers {
            let rejects = rejects.filter { $0.layer == layer }
            // Features outside the territory are not rejects: a layer with some is judged by the territory.
            guard accepted == 0, outside == 0 else { continue }
            guard !rejects.isEmpty else {
                throw InputError("\(layer): \(spec.description) has no features; nothing was written (pass --allow-empty to write an empty campaign)")
            }
            let byReason = Dictionary(grouping: rejects, by: \.reason).map { ($0.key, $0.value.count) }
            let (reason, count) = byReason.max { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 > $1.0) }!
            throw InputError("\(layer): every feature of \(spec.description) was rejected (\(rejects.count) rejects; "
                + "most common, \(count)×: \(reason)); nothing was written (pass --allow-empty to write an empty campaign)")
        }
    }
}
