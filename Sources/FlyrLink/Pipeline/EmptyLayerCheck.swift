/// A run in which every feature of a layer was rejected (lines or points given as buildings,
/// polygons as addresses, one file given for both roles) is almost always a mistake: it fails
/// before anything is written, so the previous output stays, unless the user asked for an empty
/// campaign (`--allow-empty`, pipeline key `allow_empty`). Called by `RunWriter.write` and the
/// snapshotter once the rejects are known.
public enum EmptyLayerCheck {
    public static func check(_ run: LinkRun) throws(InputError) {
        guard !run.options.allowEmpty else { return }
        let layers = [("buildings", run.options.buildings, run.buildings.count, run.report.counts.buildingsOutsideTerritory),
                      ("addresses", run.options.addresses, run.addresses.count, run.report.counts.outsideTerritory)]
        for (layer, spec, accepted, outside) in layers {
            let rejects = run.rejects.filter { $0.layer == layer }
            // Features outside the territory are not rejects: a layer with some is judged by the territory.
            guard accepted == 0, outside == 0, !rejects.isEmpty else { continue }
            let byReason = Dictionary(grouping: rejects, by: \.reason).map { ($0.key, $0.value.count) }
            let (reason, count) = byReason.max { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 > $1.0) }!
            throw InputError("\(layer): every feature of \(spec.description) was rejected (\(rejects.count) rejects; "
                + "most common, \(count)×: \(reason)); nothing was written (pass --allow-empty to write an empty campaign)")
        }
    }
}
