"""Summarises evaluate-seeds.sh: each set's scores under every deal of the 400 m blocks into
folds, their mean, and the confidence bands outside issue 46's bounds (0.05 for a band of 100
links or more; 0.1 for 30 or more)."""
import json
import statistics
import sys
from pathlib import Path


def outside(band):
    gap = abs(band["right"] - band["mean"])
    return (band["links"] >= 100 and gap > 0.05) or (band["links"] >= 30 and gap > 0.1)


def deal(path):
    """The fold seed of a summary, from evaluate-seeds.sh's directory (seed-N/summary.json);
    columns are named by it, not by their place (`evaluate-seeds.sh 3 4` had printed deals 0 and 1)."""
    return Path(path).parent.name.removeprefix("seed-")


def main(paths):
    runs = [(p, json.load(open(p))) for p in paths]
    names = [r["set"] for r in runs[0][1]]
    print("| data | " + " | ".join(f"deal {deal(p)}" for p, _ in runs) + " | mean |")
    print("|---|" + "---|" * (len(runs) + 1))
    for name in names:
        cells, f1s, leads = [], [], []
        for _, rows in runs:
            r = next(x for x in rows if x["set"] == name)
            f, n = r["flyr_link"], r["naive"]
            f1s.append(f["f1"])
            leads.append(f["f1"] - n["f1"])
            cells.append(f"{f['precision']:.3f} / {f['recall']:.3f} / {f['f1']:.3f} ({leads[-1]:+.5f})")
        print(f"| {name} | " + " | ".join(cells) + f" | F1 {statistics.mean(f1s):.4f} ({statistics.mean(leads):+.5f}) |")
    print()
    print("Confidence bands outside the bounds:")
    for k, (path, rows) in enumerate(runs):
        off = []
        for r in rows:
            off += [f"{r['set']} {b['band']}: {b['links']} links {b['right'] - b['mean']:+.3f}"
                    for b in r["flyr_link"].get("bands", []) if outside(b)]
        print(f"- deal {deal(path)}: " + ("; ".join(off) if off else "none"))


if __name__ == "__main__":
    main(sys.argv[1:])
