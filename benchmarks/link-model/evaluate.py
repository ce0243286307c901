"""Scores flyr-link beside the naive baseline (containment, then the nearest building within 30 m)
on every truth set, and prints a Markdown report.

    benchmarks/evaluate.sh       # builds, fits the fold models, runs this

Real sets (la_dev, dk_roadpoints, dk) are scored out-of-fold: every address by a model fitted
without its 400 m block's fold (fit.py --folds-dir), its calibration included. flyr-synth is
scored on cities of a seed the model never saw (the hard profile and the default one), with the
shipped model (--model).
"""
import argparse
import csv
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import truthsets  # noqa: E402

BANDS = [(k / 10, (k + 1) / 10 if k < 9 else 1.0001) for k in range(10)]
BOOTSTRAP_ROUNDS = 1000


def f1_interval(links, naive, truth, addresses, blocks):
    """95% intervals of flyr-link's F1 and of its lead over naive, the 400 m blocks resampled with
    replacement (a fixed seed): how far a number could move on another sample of the same kind of
    place. Neighbouring addresses share their errors, so blocks, not addresses, are drawn."""
    counts = {}
    for a in addresses:
        if a not in truth:
            continue
        c = counts.setdefault(blocks[a], [0] * 5)
        c[0] += a in links
        c[1] += a in links and links[a][0] in truth[a]
        c[2] += a in naive
        c[3] += a in naive and naive[a][0] in truth[a]
        c[4] += bool(truth[a])
    per_block = list(counts.values())
    rng = random.Random(0)
    f1s, leads = [], []
    for _ in range(BOOTSTRAP_ROUNDS):
        t = [0] * 5
        for c in rng.choices(per_block, k=len(per_block)):
            for k in range(5):
                t[k] += c[k]
        f1 = 2 * t[1] / (t[0] + t[4]) if t[0] + t[4] else 0.0
        f1s.append(f1)
        leads.append(f1 - (2 * t[3] / (t[2] + t[4]) if t[2] + t[4] else 0.0))
    f1s.sort()
    leads.sort()
    lo, hi = int(0.025 * BOOTSTRAP_ROUNDS), int(0.975 * BOOTSTRAP_ROUNDS) - 1
    return (f1s[lo], f1s[hi]), (leads[lo], leads[hi]), len(per_block)


def unlinked_reasons(out_dir):
    features = json.load(open(Path(out_dir) / "addresses.geojson"))["features"]
    return {f["properties"]["id"]: f["properties"].get("unlinked_reason") for f in features
            if f["properties"].get("building_id") is None}


def errors(links, truth, ids, parcel=None):
    """The wrong outcomes by kind: a building exists but no link; a link to a small building of the
    right parcel (with parcel truth: the garage, not the house); to another parcel's (or another)
    building; a link where the truth has no building."""
    e = {"unlinked, building exists": 0, "linked to a small building of the right parcel": 0,
         "linked to another parcel's building": 0, "linked, no building in truth": 0}
    for a in ids:
        if a not in links:
            e["unlinked, building exists"] += bool(truth[a])
        elif not truth[a]:
            e["linked, no building in truth"] += 1
        elif links[a][0] not in truth[a]:
            small = parcel is not None and links[a][0] in parcel.get(a, ())
            e["linked to a small building of the right parcel" if small else "linked to another parcel's building"] += 1
    if parcel is None:
        del e["linked to a small building of the right parcel"]
        e["linked to another building"] = e.pop("linked to another parcel's building")
        e["linked, no building in truth"] = e.pop("linked, no building in truth")
    return e


def small_share(links, truth, parcel, ids):
    """Of the links to a building of the right parcel, the share to one less than half the area of the
    parcel's largest (the garage share): right by parcel truth, not by dwelling truth."""
    to_parcel = [a for a in ids if a in links and links[a][0] in parcel.get(a, ())]
    small = sum(1 for a in to_parcel if links[a][0] not in truth[a])
    return small, len(to_parcel)


def report(name, links, reasons, truth, addresses, naive, blocks, beside=None):
    s = truthsets.score(links, truth, addresses)
    n = truthsets.score(naive, truth, addresses)
    s["f1_interval"], s["lead_interval"], s["blocks"] = f1_interval(links, naive, truth, addresses, blocks)
    lines = [f"### {name}", "",
             "| | truth | precision | recall | F1 | links | right | addresses (with a building) |", "|---|---|---|---|---|---|---|---|",
             f"| flyr-link | fitted on | {s['precision']:.3f} | {s['recall']:.3f} | **{s['f1']:.3f}** | {s['links']} | {s['right']} | {s['addresses']} ({s['with_building']}) |",
             f"| naive | fitted on | {n['precision']:.3f} | {n['recall']:.3f} | {n['f1']:.3f} | {n['links']} | {n['right']} | {n['addresses']} ({n['with_building']}) |"]
    ids = [a for a in addresses if a in truth]
    parcel = None
    for other, load in (beside or {}).items():
        t = load()
        parcel = t if other == "parcel truth" else parcel
        for who, made, key in (("flyr-link", links, "beside"), ("naive", naive, "beside")):
            o = truthsets.score(made, t, addresses)
            (s if who == "flyr-link" else n).setdefault(key, {})[other] = o
            lines.append(f"| {who} | {other} | {o['precision']:.3f} | {o['recall']:.3f} | {o['f1']:.3f} | {o['links']} | {o['right']} | "
                         f"{o['addresses']} ({o['with_building']}) |")
    lines.append("")
    if parcel is not None:
        lines += ["| | links to the right parcel | of them to a building < half its largest (garage share) |", "|---|---|---|"]
        for who, made, sc in (("flyr-link", links, s), ("naive", naive, n)):
            small, total = small_share(made, truth, parcel, ids)
            sc["garage_share"] = small / total if total else 0.0
            lines.append(f"| {who} | {total} | {small} ({sc['garage_share']:.1%}) |")
        lines.append("")
    groups = {who: errors(made, truth, ids, parcel) for who, made in (("flyr-link", links), ("naive", naive))}
    s["errors"], n["errors"] = groups["flyr-link"], groups["naive"]
    lines += ["| errors | " + " | ".join(groups["flyr-link"]) + " |", "|---|" + "---|" * len(groups["flyr-link"])]
    lines += [f"| {who} | " + " | ".join(str(v) for v in g.values()) + " |" for who, g in groups.items()]
    lines.append("")
    # Per match method.
    lines += ["| method | links | right | share right |", "|---|---|---|---|"]
    for method in ("gold_exact", "gold_proximity"):
        made = [a for a in ids if a in links and links[a][1] == method]
        right = sum(1 for a in made if links[a][0] in truth[a])
        lines.append(f"| {method} | {len(made)} | {right} | {right / len(made):.3f} |" if made else f"| {method} | 0 | 0 | — |")
    lines.append("")
    # Reliability: in each band of confidence, the share of links that are right.
    lines += ["| confidence | links | mean confidence | share right | gap |", "|---|---|---|---|---|"]
    s["bands"] = []
    for lo, hi in BANDS:
        made = [a for a in ids if a in links and lo <= links[a][2] < hi]
        if not made:
            continue
        right = sum(1 for a in made if links[a][0] in truth[a]) / len(made)
        mean = sum(links[a][2] for a in made) / len(made)
        lines.append(f"| {lo:.1f}–{min(hi, 1):.1f} | {len(made)} | {mean:.3f} | {right:.3f} | {right - mean:+.3f} |")
        s["bands"].append({"band": f"{lo:.1f}–{min(hi, 1):.1f}", "links": len(made), "mean": mean, "right": right})
    lines.append("")
    # Unlinked addresses: right to leave them (no building of theirs in the data) or a missed link.
    lines += ["| unlinked reason | addresses | right to leave unlinked | missed a building |", "|---|---|---|---|"]
    by_reason = {}
    for a in ids:
        if a not in links:
            by_reason.setdefault(reasons.get(a) or "—", []).append(a)
    for reason, group in sorted(by_reason.items()):
        ok = sum(1 for a in group if not truth[a])
        lines.append(f"| {reason} | {len(group)} | {ok} | {len(group) - ok} |")
    lines.append("")
    return lines, s, n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=str(truthsets.ROOT / ".build" / "release"))
    ap.add_argument("--folds-dir", required=True, help="fit.py --folds-dir output")
    ap.add_argument("--model", default=str(Path(__file__).resolve().parent / "link-model.json"))
    ap.add_argument("--synth", action="append", help="SEED:BUILDINGS:PROFILE of a flyr-synth city to score (never fitted on); repeatable")
    ap.add_argument("--work")
    ap.add_argument("--summary-json", help="also write each set's scores here (evaluate-seeds.sh reads them)")
    args = ap.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="flyr-eval-"))
    binary = Path(args.bin) / "flyr-link"
    folds = {}
    with open(Path(args.folds_dir) / "folds.csv", newline="") as f:
        for r in csv.DictReader(f):
            folds.setdefault(r["dataset"], {})[r["address_id"]] = int(r["fold"])
    out = ["## Accuracy: flyr-link against the naive baseline", ""]
    summary = []
    for s in truthsets.real_sets():
        if not s.available():
            continue
        truth = s.load_truth()
        links, reasons = {}, {}
        for k in range(truthsets.FOLDS):
            d = work / f"{s.name}-fold{k}"
            fold_links = s.run(binary, d, ["--link-model", str(Path(args.folds_dir) / f"fold-{k}.json")])
            fold_reasons = unlinked_reasons(d)
            for a, fold in folds[s.name].items():
                if fold != k:
                    continue
                if a in fold_links:
                    links[a] = fold_links[a]
                elif a in fold_reasons:
                    reasons[a] = fold_reasons[a]
        naive = s.run(binary, work / f"{s.name}-naive", ["--matcher", "naive", "--max-distance", "30", "--units", "none"])
        blocks = truthsets.spatial_blocks(truthsets.address_lonlat(work / f"{s.name}-naive"))
        lines, sc, nv = report(f"{s.name} ({s.about}; out-of-fold, 5 spatial folds of 400 m blocks)", links, reasons, truth,
                               list(folds[s.name]), naive, blocks, s.beside)
        out += lines
        summary.append((s.name + " (out-of-fold)", sc, nv))
        for other in s.beside:
            summary.append((f"{s.name}, {other} (out-of-fold)", sc["beside"][other], nv["beside"][other]))
    for spec in args.synth or ["202:20000:hard", "202:20000:default"]:
        seed, n, profile = spec.split(":")
        s = truthsets.synth_set(args.bin, int(seed), int(n), work, profile)
        truth = s.load_truth()
        tag = f"synth-{profile}"
        links = s.run(binary, work / tag, ["--link-model", args.model])
        naive = s.run(binary, work / f"{tag}-naive", ["--matcher", "naive", "--max-distance", "30", "--units", "none"])
        blocks = truthsets.spatial_blocks(truthsets.address_lonlat(work / tag))
        lines, sc, nv = report(f"{s.name}, {n} buildings (a seed never fitted on; shipped model)", links, unlinked_reasons(work / tag),
                               truth, list(truth), naive, blocks)
        out += lines
        summary.append((f"{s.name}, {n} buildings", sc, nv))
    head = ["| data | flyr-link P / R / F1 | naive P / R / F1 | F1 − naive's | 95% intervals, blocks resampled: F1; F1 − naive's |",
            "|---|---|---|---|---|"]
    for name, sc, nv in summary:
        interval = "—"
        if "f1_interval" in sc:
            (f_lo, f_hi), (d_lo, d_hi) = sc["f1_interval"], sc["lead_interval"]
            interval = f"{f_lo:.3f}–{f_hi:.3f}; {d_lo:+.3f}–{d_hi:+.3f} ({sc['blocks']} blocks)"
        head.append(f"| {name} | {sc['precision']:.3f} / {sc['recall']:.3f} / **{sc['f1']:.3f}** | "
                    f"{nv['precision']:.3f} / {nv['recall']:.3f} / {nv['f1']:.3f} | {sc['f1'] - nv['f1']:+.5f} | {interval} |")
    head += [""] + [f"{name}: links to a building less than half its parcel's largest, of the links to the right parcel "
                    f"(garage share): flyr-link {sc['garage_share']:.1%}, naive {nv['garage_share']:.1%}"
                    for name, sc, nv in summary if "garage_share" in sc]
    print("\n".join(head + [""] + out))
    if args.summary_json:
        with open(args.summary_json, "w") as f:
            json.dump([{"set": name, "flyr_link": sc, "naive": nv} for name, sc, nv in summary], f, indent=1)


if __name__ == "__main__":
    main()
