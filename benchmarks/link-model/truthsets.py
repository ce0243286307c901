"""The truth sets the link model is fitted and scored on, and how a run over each is scored.

Each set names its inputs, the flyr-link options it needs, and its truth: for every address the
set of buildings a link may rightly name (empty: the address should stay unlinked), or no entry
when the truth does not know. Folds are spatial: blocks of 400 m, dealt to five folds by a fixed
shuffle, so an address is never scored by a model fitted on its neighbours.
"""
import csv
import json
import math
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
FOLDS = 5
BLOCK_M = 400.0


class TruthSet:
    def __init__(self, name, buildings, addresses, args=(), truth=None, about="", beside=None):
        self.name, self.buildings, self.addresses, self.args, self.load_truth, self.about = name, buildings, addresses, list(args), truth, about
        # Other truths scored beside the one fitted on (name -> loader): la_dev's parcel truth.
        self.beside = beside or {}

    def available(self):
        return Path(self.buildings).exists() and Path(self.addresses).exists()

    def run(self, binary, out, extra=()):
        """Runs flyr-link over the set into `out`; returns the links (address id -> (building id, method, confidence))."""
        cmd = [str(binary), "run", "--buildings", str(self.buildings), "--addresses", str(self.addresses), "--out", str(out),
               "--quiet", *self.args, *extra]
        # (The run's warnings, such as the Danish samples' unmapped house numbers, are known: shown only on failure.)
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            done.check_returncode()
        return read_links(Path(out) / "links.csv")


def read_links(path):
    with open(path, newline="") as f:
        return {r["address_id"]: (r["building_id"], r["match_method"], float(r["confidence"])) for r in csv.DictReader(f)}


def _csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def la_dwelling_truth():
    """The buildings of the address's parcel of at least half the area of its largest: the house, not its garage."""
    rows = _csv(DATA / "la_dev" / "dwelling_truth.csv")
    return {r["id"]: {b for b in r["building_ids"].split(";") if b} for r in rows}


def la_parcel_truth():
    d = DATA / "la_dev"
    building_ain = {r["id"]: r["AIN"] for r in _csv(d / "building_truth.csv") if r["AIN"]}
    by_ain = {}
    for b, ain in building_ain.items():
        by_ain.setdefault(ain, set()).add(b)
    return {r["id"]: by_ain.get(r["AIN"], set()) for r in _csv(d / "address_truth.csv") if r["AIN"]}


def dk_road_truth():
    rows = _csv(DATA / "dk_roadpoints" / "address_truth.csv")
    return {r["id"]: ({r["building_id"]} if r["building_id"] else set()) for r in rows}


def dk_truth():
    features = json.load(open(DATA / "dk" / "addresses_with_truth.geojson"))["features"]
    return {f["properties"]["husnummer_id"]: {f["properties"]["truth_bygning_id"]} for f in features}


def synth_set(binary_dir, seed, buildings, work, profile="default"):
    city = Path(work) / f"synth-{seed}-{buildings}" if profile == "default" else Path(work) / f"synth-{profile}-{seed}-{buildings}"
    if not (city / "truth.csv").exists():
        subprocess.run([str(Path(binary_dir) / "flyr-synth"), "generate", "--buildings", str(buildings), "--seed", str(seed),
                        "--profile", profile, "--out", str(city)], check=True, stdout=subprocess.DEVNULL)

    def truth():
        return {r["address_id"]: ({r["building_id"]} if r["building_id"] else set()) for r in _csv(city / "truth.csv")}
    name = f"flyr-synth seed {seed}" if profile == "default" else f"flyr-synth {profile} seed {seed}"
    return TruthSet(name, city / "buildings.geojson", city / "addresses.geojson", truth=truth,
                    about=f"flyr-synth generate --buildings {buildings} --seed {seed} --profile {profile}")


def real_sets():
    return [
        TruthSet("la_dev", DATA / "la_dev" / "buildings.geojson", DATA / "la_dev" / "addresses.geojson", ["--height-unit", "ft"], truth=la_dwelling_truth,
                 about="LA County points, LARIAC outlines, dwelling truth", beside={"parcel truth": la_parcel_truth}),
        TruthSet("dk_roadpoints", DATA / "dk_roadpoints" / "buildings.geojson", DATA / "dk_roadpoints" / "addresses.geojson",
                 truth=dk_road_truth, about="Danish road points, register truth"),
        TruthSet("dk", DATA / "dk" / "buildings.geojson", DATA / "dk" / "addresses_with_truth.geojson",
                 args=["--address-field", "id=husnummer_id", "--building-field", "id=ID_LOKALID"], truth=dk_truth,
                 about="Danish access points, register truth"),
    ]


def address_lonlat(out_dir):
    """Each address's lon/lat, from a run's addresses.geojson."""
    features = json.load(open(Path(out_dir) / "addresses.geojson"))["features"]
    return {f["properties"]["id"]: f["geometry"]["coordinates"] for f in features}


def spatial_blocks(lonlat):
    """address id -> its 400 m block (a local equirectangular frame)."""
    if not lonlat:
        return {}
    lat0 = sum(p[1] for p in lonlat.values()) / len(lonlat)
    kx, ky = 111_320.0 * math.cos(math.radians(lat0)), 110_540.0
    return {a: (math.floor(p[0] * kx / BLOCK_M), math.floor(p[1] * ky / BLOCK_M)) for a, p in lonlat.items()}


def spatial_folds(lonlat, seed=0):
    """address id -> fold, by 400 m blocks, blocks shuffled with a fixed seed (0 unless asked:
    other seeds deal the same blocks to other folds, to see how much a score owes to the deal)."""
    block = spatial_blocks(lonlat)
    if not block:
        return {}
    blocks = sorted(set(block.values()))
    random.Random(seed).shuffle(blocks)
    fold_of_block = {b: i % FOLDS for i, b in enumerate(blocks)}
    return {a: fold_of_block[b] for a, b in block.items()}


def score(links, truth, addresses=None):
    """Precision, recall, F1 and counts of a links table against truth, over `addresses` (default: all in truth)."""
    ids = [a for a in (addresses if addresses is not None else truth) if a in truth]
    made = [a for a in ids if a in links]
    right = sum(1 for a in made if links[a][0] in truth[a])
    has_building = sum(1 for a in ids if truth[a])
    p = right / len(made) if made else 0.0
    r = right / has_building if has_building else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"addresses": len(ids), "links": len(made), "right": right, "with_building": has_building,
            "precision": p, "recall": r, "f1": f1}
