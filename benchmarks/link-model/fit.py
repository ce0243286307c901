"""Fits flyr-link's link model on the truth sets and writes it as a versioned JSON file.

    benchmarks/link-model/fit.sh            # the one command: builds, fits, writes link-model.json

What it does, in order:
1. runs flyr-link with --write-evidence on each training set (la_dev, dk_roadpoints, dk, and two
   flyr-synth cities: seed 101 of 15,000 buildings, and seed 103 of the hard profile of 6,000;
   the first is large enough to give the runs like it (a share inside of 0.5–0.85) a calibration
   of their own, with at least 50 wrong links out-of-fold): every
   candidate building of every address with its features;
2. labels each candidate from the set's truth (right building or not; addresses the truth does
   not know are kept for the claims, not fitted on);
3. deals the addresses to five spatial folds (400 m blocks; truthsets.spatial_folds);
4. fits the first stage, gradient-boosted trees (scikit-learn's HistGradientBoostingClassifier,
   fixed settings, one thread, so the same data gives the same file), on all folds, and its
   out-of-fold probabilities of every candidate;
5. from those, each candidate's competing claims (competing_claims: how strongly the other
   addresses want its building and its address's alternative), and the second stage on the
   candidates' features and claims, the same way;
6. calibrates: the second stage's out-of-fold probability of each address's chosen candidate
   against whether it was right, on the real sets (by the run's share of points inside a
   footprint), by isotonic regression averaged over 200 resamples of the links;
7. writes both stages' trees, the calibration and the feature names (link-model.json), and with
   --folds-dir, one model per fold fitted without that fold (each with its own calibration from
   an inner cross-validation of its training folds) plus folds.csv, which
   benchmarks/evaluate.sh runs the binary with to score every address out-of-fold.
"""
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # histogram sums in one order: the same data gives the same model

import argparse
import csv
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.isotonic import IsotonicRegression

sys.path.insert(0, str(Path(__file__).resolve().parent))
import truthsets  # noqa: E402

FORMAT, VERSION = "flyr-link-model", 3
# The second stage's two features (CompetingClaims in the Swift code), after the first stage's.
CLAIMS = ["strongest_other_claim", "alternative_strongest_other_claim"]
# Synthetic cities fitted on (seed, buildings, profile): seeds no evaluation uses.
SYNTH_TRAIN = [(101, 15000, "default"), (103, 6000, "hard")]
PARAMS = dict(max_iter=80, learning_rate=0.2, max_leaf_nodes=8, min_samples_leaf=30, l2_regularization=1.0,
              early_stopping=False, random_state=0)


def training_sets(binary_dir, work):
    sets = [s for s in truthsets.real_sets() if s.available()]
    return sets + [truthsets.synth_set(binary_dir, seed, n, work, profile) for seed, n, profile in SYNTH_TRAIN]


class Table:
    """Every candidate of every address of the training sets: features, label (-1: the truth does
    not know the address; such rows are scored for the claims but not fitted on), building,
    dataset, address, fold."""

    def __init__(self, names):
        self.names, self.x, self.y, self.w, self.group, self.building, self.fold, self.dataset = names, [], [], [], [], [], [], []


def gather(binary_dir, work, fold_seed=0):
    binary = Path(binary_dir) / "flyr-link"
    rows_by_set = []
    names = None
    for s in training_sets(binary_dir, work):
        out = Path(work) / ("out-" + s.name.replace(" ", "-"))
        evidence = Path(work) / ("evidence-" + s.name.replace(" ", "-") + ".csv")
        s.run(binary, out, ["--write-evidence", str(evidence), "--units", "none"])
        truth = s.load_truth()
        folds = truthsets.spatial_folds(truthsets.address_lonlat(out), fold_seed)
        with open(evidence, newline="") as f:
            reader = csv.reader(f)
            header = next(reader)
            feature_names = header[2:header.index(CLAIMS[0])]
            names = names or feature_names
            assert feature_names == names, "the sets' evidence files list different features"
            rows = list(reader)
        rows_by_set.append((s, truth, folds, rows))
        print(f"  {s.name}: {len(truth)} addresses with truth, {len(rows)} candidates", file=sys.stderr)
    width = len(names)
    # Each set weighs by the square root of its size relative to the largest: the small real
    # sets are not drowned by the large one, nor do they count as much as it.
    known = [sum(1 for r in rows if r[0] in truth) for _, truth, _, rows in rows_by_set]
    t = Table(names)
    for k, (s, truth, folds, rows) in enumerate(rows_by_set):
        weight = (max(known) / max(known[k], 1)) ** 0.5
        for r in rows:
            t.x.append([float(v) for v in r[2:2 + width]])
            t.y.append(-1 if r[0] not in truth else 1 if r[1] in truth[r[0]] else 0)
            t.w.append(weight)
            t.group.append((k, r[0]))
            t.building.append((k, r[1]))
            t.fold.append(folds[r[0]])
            t.dataset.append(s.name)
    t.x, t.y, t.w, t.fold = np.array(t.x), np.array(t.y), np.array(t.w), np.array(t.fold)
    # The claims as the run computed them from its own first stage: competing_claims must give
    # the same numbers from the same probabilities, or the second stage would be fitted on other
    # features than the run measures.
    run = np.array([[float(v) for v in r[2 + width:2 + width + len(CLAIMS) + 1]] for *_, rows in rows_by_set for r in rows])
    assert np.array_equal(competing_claims(t, run[:, -1]), run[:, :-1]), "competing_claims differs from the run's CompetingClaims"
    return t, rows_by_set


def competing_claims(t, p):
    """Each candidate's two claims from the first stage's probabilities `p` of every candidate, as
    the run computes them (CompetingClaims.swift): the highest probability another address of the
    same set gives the building (0: none), and the same for the address's likeliest other
    candidate (ties: the nearer; 1: no other). Probabilities in steps of 1/65535, as the run keeps them
    (CompetingClaims.quantized: the nearest step, half-way to the even one, as np.round)."""
    p = np.round(p * 65535) / 65535
    top = {}  # building -> [(p, row)] of its two strongest claims
    rows_of = {}
    for i in range(len(p)):
        rows_of.setdefault(t.group[i], []).append(i)
        c = top.setdefault(t.building[i], [])
        c.append((p[i], i))
        c.sort(key=lambda pr: -pr[0])
        del c[2:]

    def other(i):
        for q, j in top[t.building[i]]:
            if t.group[j] != t.group[i]:
                return q
        return 0.0
    out = np.zeros((len(p), 2))
    for rows in rows_of.values():  # an address's candidates, nearest first
        for i in rows:
            alternatives = [j for j in rows if j != i]
            out[i, 0] = other(i)
            out[i, 1] = other(max(alternatives, key=lambda j: (p[j], -j))) if alternatives else 1.0
    return out


def fit_trees(x, y, w):
    return HistGradientBoostingClassifier(**PARAMS).fit(x, y, sample_weight=w)


def chosen(t, p, rows, with_share=False):
    """Per address among `rows` (candidate indices): the likeliest candidate's probability and whether it is right
    (and the run's share of points inside a footprint, and whether the set is real, not flyr-synth's)."""
    best = {}
    for i in rows:
        if t.y[i] < 0:
            continue
        g = t.group[i]
        if g not in best or p[i] > p[best[g]]:  # ties: the first (nearest) candidate
            best[g] = i
    idx = np.array(sorted(best.values()))
    if with_share:
        real = np.array([not t.dataset[i].startswith("flyr-synth") for i in idx])
        return p[idx], t.y[idx], t.x[idx, t.names.index("run_share_inside")], real
    return p[idx], t.y[idx]


def labelled(t, rows):
    """The rows among `rows` whose address the truth knows (the ones fitted on)."""
    return [i for i in rows if t.y[i] >= 0]


def out_of_fold(t, x, rows, folds):
    """Probabilities for `rows` from features `x`, each from trees fitted on the other folds'
    labelled rows among `rows`."""
    p = np.zeros(len(t.y))
    for k in folds:
        test = [i for i in rows if t.fold[i] == k]
        train = labelled(t, [i for i in rows if t.fold[i] != k])
        if not test:
            continue
        p[test] = fit_trees(x[train], t.y[train], t.w[train]).predict_proba(x[test])[:, 1]
    return p


class TwoStages:
    """The first stage on the candidates' own features; the second on those and the claims
    (`competing_claims`) of the first stage's out-of-fold probabilities, as a run will see them on
    addresses the first stage was not fitted on."""

    def __init__(self, t, train, folds, predict=()):
        """Fitted on the labelled rows among `train` (folds `folds`); `predict`: other rows to
        score (their first stage's probabilities from the first stage fitted on all of `train`)."""
        known = labelled(t, train)
        self.first = fit_trees(t.x[known], t.y[known], t.w[known])
        p = out_of_fold(t, t.x, train, folds)
        if len(predict):
            p[list(predict)] = self.first.predict_proba(t.x[list(predict)])[:, 1]
        self.x2 = np.hstack([t.x, competing_claims(t, p)])
        self.oof = out_of_fold(t, self.x2, train, folds)  # what the calibration is fitted on
        self.second = fit_trees(self.x2[known], t.y[known], t.w[known])


# Calibration by how the run places its points (its share of points inside a footprint): points on
# the road, at the parcel, a mix, inside. The same probability is not right as often in each.
SHARE_INSIDE_BELOW = [0.25, 0.5, 0.85, 1.01]


# How many links' worth of the group's own share right a step above that share is weighed with.
ABOVE_GROUP_PRIOR = 10.0


def shrunk_steps(iso, ps, right):
    """The isotonic steps' shares right, each as (right + 1) / (links + 2): a step of a few links all
    right says 1.0 on too little evidence (a road-point band of 32 links said 0.97 and was 78% right).
    A step that says its links are righter than the group's links are on the whole must show it: it
    is also shrunk toward the group's share, as if ABOVE_GROUP_PRIOR more links were right at that
    share, and keeps the lower of the two (the road points' top step, learnt from one fold's few
    dozen links, had said 0.955 and was 80% right). Steps below the group's share are not pulled up:
    that would make links of doubtful steps. A running maximum keeps the steps rising."""
    fitted = iso.predict(ps)
    share = {}
    group = right.mean()
    for level in np.unique(fitted):
        k = fitted == level
        step = (right[k].sum() + 1.0) / (k.sum() + 2.0)
        if step > group:
            step = min(step, (right[k].sum() + ABOVE_GROUP_PRIOR * group) / (k.sum() + ABOVE_GROUP_PRIOR))
        share[level] = step
    out, top = [], 0.0
    for y in iso.y_thresholds_:
        # Thresholds carry the fitted levels; a level no link was fitted to (interpolated) keeps its own value.
        top = max(top, share.get(y, y))
        out.append(float(top))
    return out


# The calibration is the mean of isotonic fits to this many resamples of its links, read at GRID: one
# fit's steps move with a few links (la_dev's 0.5–0.6 band had said 0.55 of links 69% right).
CALIBRATION_RESAMPLES = 200
GRID = [k / 200 for k in range(201)]


def calibration(t, rows, p):
    ps, right, share, real = chosen(t, p, rows, with_share=True)
    groups = []
    rng = np.random.default_rng(0)
    for k, below in enumerate(SHARE_INSIDE_BELOW):
        # A group needs links both right and wrong to say how often a probability is right (50 wrong at
        # least): its real sets' links when they have them (a confidence is a claim about real sources;
        # flyr-synth's cities only train the trees), else all its sets', else every real set's (the Danish
        # access points, all right, alone would call every link there certain).
        lower = SHARE_INSIDE_BELOW[k - 1] if k > 0 else -1.0
        m = (share >= lower) & (share < below)
        if (right[m & real] == 0).sum() >= 50:
            m = m & real
        elif (right[m] == 0).sum() < 50:
            m = real.copy()
        x, y = ps[m], right[m]
        fits = []
        for _ in range(CALIBRATION_RESAMPLES):
            draw = rng.integers(0, len(x), len(x))
            iso = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip", increasing=True).fit(x[draw], y[draw])
            fits.append(np.interp(GRID, iso.X_thresholds_, shrunk_steps(iso, x[draw], y[draw])))
        groups.append({"share_inside_below": below, "x": GRID, "y": [round(float(v), 6) for v in np.mean(fits, axis=0)]})
    return groups


def export(stages, names, calib, fitted_on):
    return {"format": FORMAT, "version": VERSION, "fitted_on": fitted_on, "features": names,
            "parameters": {k: v for k, v in PARAMS.items()}, **forest(stages.first),
            "second_stage": {"features": names + CLAIMS, **forest(stages.second)}, "calibration": calib}


def forest(model):
    """A fitted stage's baseline and trees."""
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        # Renumbered breadth-first from the root: children always after their parent.
        order, at = [0], 0
        while at < len(order):
            n = nodes[order[at]]
            if not n["is_leaf"]:
                order += [int(n["left"]), int(n["right"])]
            at += 1
        new = {old: k for k, old in enumerate(order)}
        tree = {"feature": [], "threshold": [], "left": [], "right": [], "value": []}
        for old in order:
            n = nodes[old]
            leaf = bool(n["is_leaf"])
            tree["feature"].append(-1 if leaf else int(n["feature_idx"]))
            tree["threshold"].append(0.0 if leaf else float(n["num_threshold"]))
            tree["left"].append(0 if leaf else new[int(n["left"])])
            tree["right"].append(0 if leaf else new[int(n["right"])])
            tree["value"].append(float(n["value"]) if leaf else 0.0)
        trees.append(tree)
    return {"baseline": float(np.ravel(model._baseline_prediction)[0]), "trees": trees}


def write_json(obj, path):
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, separators=(",", ":")) + "\n")
    tmp.replace(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(truthsets.ROOT / ".build" / "release"), help="directory with flyr-link and flyr-synth")
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent / "link-model.json"))
    ap.add_argument("--folds-dir", help="also write fold-K.json (fitted without fold K) and folds.csv here")
    ap.add_argument("--work", help="working directory (default: a temporary one)")
    ap.add_argument("--fold-seed", type=int, default=0,
                    help="shuffle of the 400 m blocks into folds (default 0, what the shipped model and evaluate.sh use)")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="flyr-fit-")
    print(f"gathering evidence in {work}", file=sys.stderr)
    t, sets = gather(args.bin, work, args.fold_seed)
    every = list(range(len(t.y)))
    folds = list(range(truthsets.FOLDS))
    fitted_on = [s.about + f" ({s.name})" for s, *_ in sets]

    print("fitting the model and its calibration (out-of-fold)", file=sys.stderr)
    final = TwoStages(t, every, folds)
    model = export(final, t.names, calibration(t, every, final.oof), fitted_on)
    write_json(model, args.out)
    # Rows of both stages' features with scikit-learn's probabilities, for the Swift tests to
    # agree with (every 97th candidate: all the sets, every rank).
    check = Path(args.out).with_name("check.csv")
    tmp = check.with_name(check.name + ".tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(t.names + CLAIMS + ["first_probability", "probability"])
        rows = every[::97]
        firsts = final.first.predict_proba(t.x[rows])[:, 1]
        for i, p1, p in zip(rows, firsts, final.second.predict_proba(final.x2[rows])[:, 1]):
            w.writerow([repr(float(v)) for v in final.x2[i]] + [repr(float(p1)), repr(float(p))])
    tmp.replace(check)
    print(f"wrote {args.out}: {len(model['trees'])} + {len(model['second_stage']['trees'])} trees", file=sys.stderr)

    if args.folds_dir:
        d = Path(args.folds_dir)
        d.mkdir(parents=True, exist_ok=True)
        for k in folds:
            print(f"  fold {k}", file=sys.stderr)
            train = [i for i in every if t.fold[i] != k]
            stages = TwoStages(t, train, [j for j in folds if j != k], predict=[i for i in every if t.fold[i] == k])
            m = export(stages, t.names, calibration(t, train, stages.oof), fitted_on + [f"all folds but {k}"])
            write_json(m, d / f"fold-{k}.json")
        with open(d / "folds.csv", "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["dataset", "address_id", "fold"])
            for s, truth, fold_of, _ in sets:
                for a in sorted(fold_of):
                    w.writerow([s.name, a, fold_of[a]])
        print(f"wrote {truthsets.FOLDS} fold models and folds.csv to {d}", file=sys.stderr)


if __name__ == "__main__":
    main()
