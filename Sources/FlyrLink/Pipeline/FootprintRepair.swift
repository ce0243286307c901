/// Checks every footprint with GEOS and repairs invalid ones with MakeValid (polygonal part only;
/// nothing left: rejected). Plainly valid rings skip GEOS (`Footprint.isPlainlyValid`).
enum FootprintRepair {
    enum Outcome {
        case valid
        case repaired(Footprint, reason: String)
        case unusable(String)
    }

    /// The footprints not plainly valid, each with GEOS's outcome, in index order (every other one is
    /// valid): sparse, since nearly every outcome is `.valid`.
    static func run(_ footprints: FootprintStore, pool: WorkerPool) -> [(index: Int, outcome: Outcome)] {
        let plain = pool.map(footprints.count, chunkSize: 4096) { _, i in footprints[i].isPlainlyValid }
        let suspects = plain.indices.filter { !plain[$0] }
        return pool.map(suspects.count, chunkSize: 16) { context, k in (suspects[k], check(footprints.footprint(suspects[k]), context: context)) }
    }

    private static func check(_ f: Footprint, context: GEOSContext) -> Outcome {
        do throws(GEOSError) {
            let g = try context.geometry(f)
            if context.isValid(g) { return .valid }
            let reason = context.invalidReason(g)
            let fixed = context.footprint(try context.makeValid(g))
            guard !fixed.polygons.isEmpty, fixed.area > 0 else { return .unusable("invalid footprint (\(reason)) with no area left after MakeValid") }
            return .repaired(fixed, reason: reason)
        } catch {
            return .unusable("footprint GEOS cannot build: \(error.message)")
        }
    }
}
