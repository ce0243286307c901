/// Checks every footprint with GEOS and repairs invalid ones with MakeValid (keeping only the
/// polygonal result). A footprint with nothing left after repair is rejected. Plain rings that are
/// clearly valid skip GEOS (Footprint.isPlainlyValid).
enum FootprintRepair {
    enum Outcome {
        case valid
        case repaired(Footprint, reason: String)
        case unusable(String)
    }

    static func run(_ footprints: [Footprint], pool: WorkerPool) -> [Outcome] {
        pool.map(footprints.count, chunkSize: 1024) { context, i in
            let f = footprints[i]
            if f.isPlainlyValid { return .valid }
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
}
