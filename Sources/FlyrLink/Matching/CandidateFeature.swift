/// One of the link model's features, in its place in a row: the case's position is the column,
/// its `name` the model file's (a run refuses a model fitted on other names).
enum CandidateFeature: Int, CaseIterable, Sendable {
    // The candidate as the address sees it.
    case distance, inside, rank, behindNearest, aheadOfNext, logArea, logAreaVsLargest, candidates, accessory, facesCorner
    // The addresses that see it first (its claimants).
    case claimants, claimantsInside, nearestClaimant, closerThanClaimants, claimantsCloser, claimantSameHouse,
         claimantNumberGapSameStreet, claimantsOtherStreet
    case largerCloserCandidates
    // How the run's source places its points: one value for every candidate (`LinkModel.specialized`).
    case runShareInside, runMedianNearest
    // Every other address that sees it; the street's sides.
    case nearestOtherAddress, otherAddressesCloser, sideVsSameParity, sideVsOtherParity, alongStreet, acrossStreet,
         leftOfRisingNumbers, oddNumber, onRunConventionSide, onStreetConventionSide, unclaimedAlternative
    // The building's centroid.
    case centroid, othersCloserToCentroid, closerToCentroidThanOthers
    // A house and its garage in one line of sight: the small one in front, the larger behind it.
    case largerBehind, smallerInFront

    var name: String {
        switch self {
        case .distance: "distance_m"
        case .inside: "inside"
        case .rank: "rank"
        case .behindNearest: "behind_nearest_m"
        case .aheadOfNext: "ahead_of_next_m"
        case .logArea: "log_area_m2"
        case .logAreaVsLargest: "log_area_vs_largest"
        case .candidates: "candidates"
        case .accessory: "accessory"
        case .facesCorner: "faces_corner"
        case .claimants: "claimants"
        case .claimantsInside: "claimants_inside"
        case .nearestClaimant: "nearest_claimant_m"
        case .closerThanClaimants: "closer_than_claimants_m"
        case .claimantsCloser: "claimants_closer"
        case .claimantSameHouse: "claimant_same_house"
        case .claimantNumberGapSameStreet: "claimant_number_gap_same_street"
        case .claimantsOtherStreet: "claimants_other_street"
        case .largerCloserCandidates: "larger_closer_candidates"
        case .runShareInside: "run_share_inside"
        case .runMedianNearest: "run_median_nearest_m"
        case .nearestOtherAddress: "nearest_other_address_m"
        case .otherAddressesCloser: "other_addresses_closer"
        case .sideVsSameParity: "side_vs_same_parity"
        case .sideVsOtherParity: "side_vs_other_parity"
        case .alongStreet: "along_street_m"
        case .acrossStreet: "across_street_m"
        case .leftOfRisingNumbers: "left_of_rising_numbers"
        case .oddNumber: "odd_number"
        case .onRunConventionSide: "on_run_convention_side"
        case .onStreetConventionSide: "on_street_convention_side"
        case .unclaimedAlternative: "unclaimed_alternative_m"
        case .centroid: "centroid_m"
        case .othersCloserToCentroid: "others_closer_to_centroid"
        case .closerToCentroidThanOthers: "closer_to_centroid_than_others_m"
        case .largerBehind: "larger_behind"
        case .smallerInFront: "smaller_in_front"
        }
    }
}
