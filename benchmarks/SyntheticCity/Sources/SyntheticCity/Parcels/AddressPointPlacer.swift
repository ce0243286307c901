/// Draws where an address point sits relative to its building.
enum AddressPointPlacer {
    /// Placement mix for addressed buildings (documented in the README).
    static let placements: [Placement] = [.inside, .outline, .front, .streetDrift]
    static let weights: [Double] = [0.40, 0.20, 0.25, 0.15]

    static func drawPlacement(_ rng: inout SeededGenerator) -> Placement {
        placements[rng.weightedIndex(weights)]
    }

    /// - Parameter interiorInset: distance kept from walls for `inside` points, so later
    ///   jitter (apartment clusters) cannot push a point outside.
    static func point(
        _ placement: Placement, facade: Facade, interiorInset: Double, rng: inout SeededGenerator
    ) -> Point {
        switch placement {
        case .inside:
            let r = facade.interior.inset(by: interiorInset)
            let local = Point(rng.uniform(r.minX, r.maxX), rng.uniform(r.minY, r.maxY))
            return facade.frame.apply(local)
        case .outline:
            // Interpolating the wall's own vertices keeps the point on the edge exactly.
            return Point.lerp(facade.wallStart, facade.wallEnd, rng.uniform(0.15, 0.85))
        case .front:
            let onWall = Point.lerp(facade.wallStart, facade.wallEnd, rng.uniform(0.15, 0.85))
            // Never past the kerb line: setbacks are ≥ 3 m, so the range is never empty.
            let distance = rng.uniform(1, min(8, onWall.y - 0.3))
            return Point(onWall.x, onWall.y - distance)
        case .streetDrift:
            // v ≤ 2.5 m stays in front of garages, whose fronts are ≥ 3 m from the kerb.
            let shift = rng.uniform(-0.35, 0.35) * facade.stretchWidth
            return Point(facade.stretchCentre + shift, rng.uniform(0.5, 2.5))
        case .lot:
            preconditionFailure("lot points belong to vacant lots, see VacantLotPlanner")
        default:
            preconditionFailure("hard-profile placements are drawn by their planners")
        }
    }

    /// Hard profile `street_edge`: 0.5–3 m from the street edge (and ≥ 0.3 m short of
    /// `frontV`, the nearest front wall or garage door), at `centre` ± 0.45 × `width`.
    static func streetEdge(centre: Double, width: Double, frontV: Double, rng: inout SeededGenerator) -> Point {
        let shift = rng.uniform(-0.45, 0.45) * width
        return Point(centre + shift, rng.uniform(0.5, max(0.5, min(3, frontV - 0.3))))
    }
}
