#!/usr/bin/env python3
"""flyr-link against its peers (GeoPandas, PostGIS, DuckDB, SedonaDB) on synthetic cities: one command.

    benchmarks/run_benchmarks.py [--sizes 10k,100k,1m,10m] [--profile default|hard|dense]
                                 [--formats fgb,geojson,parquet] [--peers geopandas,postgis,duckdb,sedonadb]
                                 [--peer-max-size 1m] [--smoke] ...

For every size it generates a synthetic city with `flyr-synth generate --profile P` (cached under
benchmarks/work/ by size, seed and profile: city-10k-seed1 for the default profile,
city-10k-seed1-dense for the dense one, each checked against its city.json), converts it (untimed)
to FlatGeobuf with ogr2ogr and, for `parquet`, to GeoParquet with GeoPandas
(`to_parquet(compression="zstd", row_group_size=65536, write_covering_bbox=True)` from the GeoJSON
read by pyogrio, the CRS kept), then for every format runs, one after the other, each tool as a
separate process under `/usr/bin/time -v`:

  flyr-link      flyr-link run --only links --quiet          (read, link, write links.csv; GeoParquet
                                                              with --parquet-reader flyr, its own reader)
  flyr-link-all  flyr-link run --quiet                       (every output; for the all/links ratio)
  geopandas      benchmarks/peers/geopandas_link.py          (pyogrio read or gpd.read_parquet, sjoin covered_by, sjoin_nearest)
  postgis        benchmarks/peers/postgis_link.sh            (ogr2ogr load, GiST, ST_Covers + LATERAL KNN, COPY)
  duckdb         benchmarks/peers/duckdb_link.py             (DuckDB spatial: ST_Read or read_parquet, ST_Covers and ST_DWithin joins, COPY)
  sedonadb       benchmarks/peers/sedonadb_link.py           (SedonaDB: read_pyogrio or read_parquet, ST_Covers and ST_DWithin joins)

PostGIS is skipped for GeoParquet when ogr2ogr's GDAL has no Parquet driver (Debian 12's 3.6.2 has
none); the table says so. Each links table is scored with `flyr-synth evaluate --json`. With
`--repeat N` every tool runs N times, the tools taking turns (A B C, A B C, ...), and each figure is
that of the run with the median wall time (the spread is shown beside it): this shared machine's
speed drifts by tens of percent within minutes, and single runs compared ratios across those
drifts. It prints a Markdown table and writes it (with the raw figures as JSON) under
benchmarks/results/, as <UTC start>.md / .json (<UTC start>-<profile> for the hard and dense
profiles); the table's first line and the JSON name the profile. The peers are installed here when
missing (GeoPandas, DuckDB with its spatial extension's wheel and SedonaDB into benchmarks/.venv
from PyPI, the engines pinned; PostgreSQL 15 + PostGIS 3, gdal-bin and `time` from Debian); if that
fails the run fails. See benchmarks/README.md.
"""
import argparse
import datetime as dt
import json
import math
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VENV = HERE / ".venv"
# The Python peers' packages: pip requirement, module imported to check it. The engines measured are
# pinned (their figures are quoted against these versions); GeoPandas' stack takes what pip resolves.
PY_PACKAGES = [("geopandas", "geopandas"), ("pyogrio", "pyogrio"), ("pyarrow", "pyarrow"), ("shapely", "shapely"),
               ("duckdb==1.5.5", "duckdb"), ("duckdb-extension-spatial==1.5.5", "duckdb_extension_spatial"),
               ("sedonadb==0.5.0", "sedonadb")]
PY_PEERS = ["geopandas", "duckdb", "sedonadb"]
APT_PEERS = {"postgresql-15-postgis-3": "/usr/share/postgresql/15/extension/postgis.control",
             "gdal-bin": "/usr/bin/ogr2ogr", "time": "/usr/bin/time"}
TOOLS = ["flyr-link", "flyr-link-all", "geopandas", "postgis", "duckdb", "sedonadb"]
PEERS = ["geopandas", "postgis", "duckdb", "sedonadb"]
PROFILES = ["default", "hard", "dense"]
FORMATS = ["fgb", "geojson", "parquet"]
# Sizes above which a peer is skipped by default, and why (the table states it).
PEER_DEFAULT_MAX = {
    "geopandas": (1_000_000, "GeoPandas holds both layers and the join in memory: 1.9 GB measured at 1M "
                             "buildings, about 19 GB at 10M, more than a shared 24 GB machine can give"),
}
# The GeoParquet the cities are written as: GeoPandas' to_parquet with these options (zstd, row
# groups of 65,536 rows, GeoParquet 1.1's bbox covering column), from the GeoJSON read by pyogrio.
# Run by the venv's Python: argv = GeoJSON, GeoParquet; fails unless the file carries the CRS.
TO_GEOPARQUET = """
import json, sys
import geopandas as gpd
import pyarrow.parquet as pq
src, dst = sys.argv[1], sys.argv[2]
df = gpd.read_file(src, engine="pyogrio", use_arrow=True)
if df.crs is None:
    sys.exit(f"{src}: read without a CRS")
df.to_parquet(dst, compression="zstd", row_group_size=65536, write_covering_bbox=True)
geo = json.loads(pq.read_schema(dst).metadata[b"geo"])
crs = geo["columns"][geo["primary_column"]].get("crs")
if crs is None or gpd.GeoSeries([], crs=crs).crs != df.crs:
    sys.exit(f"{dst}: written without the CRS {df.crs.to_string()}")
print(f"{len(df)} rows, {df.crs.to_string()}, GeoParquet {geo['version']}")
"""


class HarnessError(Exception):
    pass


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def parse_size(s):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([km]?)", s.strip().lower())
    if not m:
        raise argparse.ArgumentTypeError(f"bad size {s!r} (e.g. 10k, 100k, 1m, 10m, 2500)")
    return int(float(m.group(1)) * {"": 1, "k": 1_000, "m": 1_000_000}[m.group(2)])


def size_label(n):
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n % 1_000 == 0:
        return f"{n // 1_000}k"
    return str(n)


def run(cmd, **kw):
    log("$ " + " ".join(str(c) for c in cmd))
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


# ---------------------------------------------------------------------------------------------
# Installing the peers (fails loudly: the smoke test must not skip)

def apt_install(packages):
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    if shutil.which("apt-get") is None:
        raise HarnessError(f"apt-get not found: cannot install {' '.join(packages)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        run(sudo + ["apt-get", "update", "-qq"], env=env)
        run(sudo + ["apt-get", "install", "-y", "-qq", *packages], env=env, stdout=subprocess.DEVNULL)
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        raise HarnessError(f"apt-get install {' '.join(packages)} failed: {e}")


def gdal_has_parquet():
    """Whether ogr2ogr's GDAL has a Parquet driver (Debian 12's GDAL 3.6.2 has none)."""
    try:
        p = subprocess.run(["ogrinfo", "--formats"], capture_output=True, text=True)
    except OSError:
        return False
    return any(line.strip().startswith("Parquet") for line in p.stdout.splitlines())


def gdal_version():
    try:
        out = subprocess.run(["ogr2ogr", "--version"], capture_output=True, text=True).stdout
    except OSError:
        return "?"
    m = re.search(r"GDAL (\S+?),", out)
    return m.group(1) if m else "?"


def format_skip(tool, fmt):
    """Why `tool` cannot read `fmt` on this machine (the table states it), or None."""
    if tool == "postgis" and fmt == "parquet" and not gdal_has_parquet():
        return (f"the PostGIS peer loads its layers with ogr2ogr, and this GDAL ({gdal_version()}) has no "
                "Parquet driver")
    return None


def ensure_system(peers):
    wanted = {"time"}
    if "postgis" in peers:
        wanted |= {"postgresql-15-postgis-3", "gdal-bin"}
    wanted.add("gdal-bin")  # ogr2ogr converts the cities to FlatGeobuf
    missing = sorted(p for p in wanted if not Path(APT_PEERS[p]).exists())
    if missing:
        log(f"installing from Debian: {' '.join(missing)}")
        apt_install(missing)
    still = sorted(p for p in wanted if not Path(APT_PEERS[p]).exists())
    if still:
        raise HarnessError(f"still missing after apt-get: {' '.join(still)}")
    if "postgis" in peers and os.geteuid() == 0:
        try:
            subprocess.run(["id", "postgres"], check=True, capture_output=True)
        except subprocess.CalledProcessError:
            raise HarnessError("running as root, the PostGIS peer needs a 'postgres' user (initdb refuses root)")


def venv_python():
    return VENV / "bin" / "python"


def _venv_probe():
    """Python that imports every peer package and checks the pinned versions; exit 1 naming the
    first that is missing or of another version."""
    pins = [req.split("==") for req, _ in PY_PACKAGES if "==" in req]
    return ("import importlib.metadata as m, sys\n"
            f"for mod in {[mod for _, mod in PY_PACKAGES]!r}:\n"
            "    try: __import__(mod)\n"
            "    except Exception as e: sys.exit(f'{mod} does not import: {e}')\n"
            f"for name, want in {pins!r}:\n"
            "    have = m.version(name)\n"
            "    if have != want: sys.exit(f'{name} {have} installed, {want} pinned')\n")


def ensure_venv():
    py = venv_python()
    probe = _venv_probe()
    reqs = [req for req, _ in PY_PACKAGES]
    if py.exists():
        p = subprocess.run([py, "-c", probe], capture_output=True, text=True)
        if p.returncode == 0:
            return py
        log(f"{VENV}: {(p.stderr.strip().splitlines() or ['does not work'])[-1]}; installing {' '.join(reqs)}")
    else:
        log(f"creating {VENV} and installing {' '.join(reqs)} from PyPI")
        base = shutil.which("python3") or sys.executable
        if subprocess.run([base, "-c", "import ensurepip, venv"], capture_output=True).returncode != 0:
            apt_install(["python3-venv"])
        try:
            run([base, "-m", "venv", VENV])
        except subprocess.CalledProcessError as e:
            raise HarnessError(f"could not create {VENV}: {e}")
    for cmd in (["install", "-q", "--upgrade", "pip"], ["install", "-q", *reqs]):
        log("$ " + " ".join([str(py), "-m", "pip", *cmd]))
        p = subprocess.run([py, "-m", "pip", *cmd], stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.stderr.write(p.stderr)
            errors = [l for l in p.stderr.splitlines() if l.startswith("ERROR")] or p.stderr.strip().splitlines() or ["?"]
            raise HarnessError(f"pip {' '.join(cmd)} into {VENV} failed (exit {p.returncode}): {errors[-1]}")
    p = subprocess.run([py, "-c", probe], capture_output=True, text=True)
    if p.returncode != 0:
        raise HarnessError(f"the peers' environment {VENV} installed but does not work: "
                           f"{(p.stderr.strip().splitlines() or ['?'])[-1]}")
    return py


def build(args):
    if args.bin_dir:
        bindir = Path(args.bin_dir).resolve()
    else:
        scratch = (ROOT / args.scratch_path).resolve()
        for product in ("flyr-link", "flyr-synth"):
            run(["swift", "build", "-c", args.configuration, "--scratch-path", scratch, "--product", product],
                cwd=ROOT, stdout=subprocess.DEVNULL)
        bindir = scratch / args.configuration
    for exe in ("flyr-link", "flyr-synth"):
        if not (bindir / exe).exists():
            raise HarnessError(f"{bindir / exe} not found")
    return bindir


# ---------------------------------------------------------------------------------------------
# Cities

def city_dir(work, n, seed, profile):
    # The default profile's directory keeps its old name (cities cached before profiles existed
    # are default cities); the others carry the profile's name.
    return work / (f"city-{size_label(n)}-seed{seed}" + ("" if profile == "default" else f"-{profile}"))


def ensure_city(bindir, work, n, seed, profile, formats, fresh):
    d = city_dir(work, n, seed, profile)
    meta = d / "city.json"
    ok = False
    if meta.exists() and not fresh:
        try:
            m = json.loads(meta.read_text())
            # flyr-synth leaves `profile` out of a default city's city.json.
            ok = (m.get("requestedBuildings") == n and m.get("seed") == seed
                  and m.get("profile", "default") == profile and (d / "truth.csv").exists())
        except ValueError:
            ok = False
    if not ok:
        if d.exists():
            shutil.rmtree(d)
        t = time.time()
        run([bindir / "flyr-synth", "generate", "--buildings", n, "--seed", seed, "--profile", profile,
             "--out", d], stdout=subprocess.DEVNULL)
        log(f"generated {size_label(n)} {profile} city in {time.time() - t:.1f} s")
    def to_geoparquet(layer, source, tmp):
        log(f"$ {venv_python()} -c TO_GEOPARQUET {source} {tmp}")
        p = subprocess.run([venv_python(), "-c", TO_GEOPARQUET, source, tmp], capture_output=True, text=True)
        if p.returncode != 0:
            raise HarnessError(f"writing {layer} as GeoParquet failed: {(p.stderr.strip().splitlines() or ['?'])[-1]}")
        return f" ({p.stdout.strip()})"

    def to_flatgeobuf(layer, source, tmp):
        run(["ogr2ogr", "-f", "FlatGeobuf", tmp, source])
        return ""

    # Each layer written beside its GeoJSON once, through a temporary name (an interrupted
    # conversion never passes for a finished one).
    for fmt, ext, label, convert in (("fgb", "fgb", "FlatGeobuf", to_flatgeobuf),
                                     ("parquet", "parquet", "GeoParquet", to_geoparquet)):
        if fmt not in formats:
            continue
        for layer in ("buildings", "addresses"):
            out = d / f"{layer}.{ext}"
            if out.exists():
                continue
            t = time.time()
            tmp = d / f".{layer}.tmp.{ext}"
            tmp.unlink(missing_ok=True)
            detail = convert(layer, d / f"{layer}.geojson", tmp)
            tmp.rename(out)
            log(f"converted {layer} to {label} in {time.time() - t:.1f} s{detail}")
    return d


def utm_srid(city):
    m = json.loads((city / "city.json").read_text())
    w, s, e, n = m["bbox"]
    lon, lat = (w + e) / 2, (s + n) / 2
    zone = int((lon + 180) // 6) + 1
    return (32600 if lat >= 0 else 32700) + zone


# ---------------------------------------------------------------------------------------------
# Measuring one process (and its descendants)

def _children_map():
    kids = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def _mem_kb(pid):
    """(Pss, Rss, VmHWM) of one process in kB, or None when it is gone."""
    pss = rss = hwm = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss = int(line.split()[1])
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
    except OSError:
        return None
    return pss, rss, hwm


class TreeSampler(threading.Thread):
    """Samples the process tree under `root` every `interval` s: peak of the summed PSS (each
    shared page counted once, split between its sharers), peak of the summed RSS, and each
    process's own VmHWM (summed at the end: an upper bound that counts shared pages repeatedly)."""

    def __init__(self, root, interval=0.2, limit_kb=None):
        super().__init__(daemon=True)
        self.root, self.interval, self.limit_kb = root, interval, limit_kb
        self.over_limit = False
        self.peak_pss = self.peak_rss = 0
        self.hwm = {}
        self.samples = 0
        self.stop_event = threading.Event()

    def run(self):
        while not self.stop_event.is_set():
            kids = _children_map()
            todo, tree = [self.root], []
            while todo:
                p = todo.pop()
                tree.append(p)
                todo.extend(kids.get(p, []))
            pss = rss = 0
            for p in tree:
                m = _mem_kb(p)
                if m:
                    pss += m[0]
                    rss += m[1]
                    self.hwm[p] = max(self.hwm.get(p, 0), m[2])
            self.peak_pss = max(self.peak_pss, pss)
            self.peak_rss = max(self.peak_rss, rss)
            self.samples += 1
            if self.limit_kb and pss > self.limit_kb and not self.over_limit:
                # Protects a shared machine: the run is stopped, reported as over the limit.
                # SIGTERM first so the PostGIS script's trap stops its server; SIGKILL after 10 s.
                self.over_limit = True
                for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 0)):
                    try:
                        os.killpg(self.root, sig)
                    except OSError:
                        break
                    if self.stop_event.wait(grace):
                        break
            self.stop_event.wait(self.interval)

    def stop(self):
        self.stop_event.set()
        self.join()


def parse_time_v(text):
    out = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("User time (seconds):"):
            out["user_s"] = float(line.split(":")[-1])
        elif line.startswith("System time (seconds):"):
            out["sys_s"] = float(line.split(":")[-1])
        elif line.startswith("Maximum resident set size (kbytes):"):
            out["max_rss_kb"] = int(line.split(":")[-1])
        elif line.startswith("Elapsed (wall clock) time"):
            v = line.split("):")[-1].strip().split(":")
            secs = 0.0
            for part in v:
                secs = secs * 60 + float(part)
            out["wall_s"] = secs
        elif line.startswith("Exit status:"):
            out["exit_status"] = int(line.split(":")[-1])
    return out


def measure(cmd, logfile, timeout, limit_kb=None):
    """Runs cmd under /usr/bin/time -v in its own session; returns the measured figures."""
    tfile = logfile.with_suffix(".time")
    full = ["/usr/bin/time", "-v", "-o", str(tfile)] + [str(c) for c in cmd]
    log("$ " + " ".join(str(c) for c in cmd))
    load1 = os.getloadavg()[0]
    with open(logfile, "w") as lf:
        t0 = time.perf_counter()
        proc = subprocess.Popen(full, stdout=lf, stderr=subprocess.STDOUT, start_new_session=True)
        sampler = TreeSampler(proc.pid, limit_kb=limit_kb)
        sampler.start()
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        except KeyboardInterrupt:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            raise
        wall = time.perf_counter() - t0
        sampler.stop()
    r = parse_time_v(tfile.read_text()) if tfile.exists() else {}
    r.update(outer_wall_s=wall, load1_before=load1, returncode=proc.returncode, timed_out=timed_out,
             over_memory_limit=sampler.over_limit,
             tree_peak_pss_kb=sampler.peak_pss, tree_peak_rss_kb=sampler.peak_rss,
             tree_sum_hwm_kb=sum(sampler.hwm.values()), samples=sampler.samples,
             processes_seen=len(sampler.hwm))
    r["cpu_s"] = r.get("user_s", 0.0) + r.get("sys_s", 0.0)
    return r


# ---------------------------------------------------------------------------------------------
# The tools

def tool_command(tool, bindir, city, fmt, out, args, srid, port):
    b, a = city / f"buildings.{fmt}", city / f"addresses.{fmt}"
    # GeoParquet through flyr-link's own reader, whether or not a GDAL with a Parquet driver is
    # there (`auto` would take GDAL's): the same reader on every machine.
    extra = (["--max-distance", args.flyr_max_distance] if args.flyr_max_distance else []) + (
        ["--parquet-reader", "flyr"] if fmt == "parquet" else [])
    if tool == "flyr-link":
        return [bindir / "flyr-link", "run", "--buildings", b, "--addresses", a, "--out", out,
                "--only", "links", "--quiet", *extra], out / "links.csv"
    if tool == "flyr-link-all":
        return [bindir / "flyr-link", "run", "--buildings", b, "--addresses", a, "--out", out,
                "--quiet", *extra], out / "links.csv"
    if tool == "geopandas":
        return [venv_python(), HERE / "peers" / "geopandas_link.py", b, a, out / "links.csv",
                "--max-distance", args.peer_max_distance], out / "links.csv"
    if tool == "postgis":
        return ["bash", HERE / "peers" / "postgis_link.sh", b, a, out / "links.csv", "--srid", srid,
                "--max-distance", args.peer_max_distance, "--port", port], out / "links.csv"
    if tool in ("duckdb", "sedonadb"):
        return [venv_python(), HERE / "peers" / f"{tool}_link.py", b, a, out / "links.csv", "--srid", srid,
                "--max-distance", args.peer_max_distance], out / "links.csv"
    raise ValueError(tool)


def free_port(start):
    for port in range(start, start + 100):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    raise HarnessError("no free loopback port for PostgreSQL")


def evaluate(bindir, links, truth):
    p = subprocess.run([bindir / "flyr-synth", "evaluate", "--links", links, "--truth", truth, "--json"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise HarnessError(f"flyr-synth evaluate failed on {links}: {p.stderr.strip()}")
    d = json.JSONDecoder().raw_decode(p.stdout.strip())[0]
    o = d["overall"]
    return {"precision": o["precision"], "recall": o["recall"], "f1": o["f1"], "links": o["links"],
            "correct": o["correct"], "addresses": o["addresses"]}


def settle(inputs):
    """Every run starts alike, whatever ran before it: the earlier runs' outputs written back
    (no writeback competing with this run) and this run's inputs read once into the page cache,
    untimed. Otherwise a run after a large peer finds its inputs evicted and pays for the disk."""
    os.sync()
    for path in inputs:
        with open(path, "rb") as f:
            while f.read(16 << 20):
                pass


def run_tool(tool, bindir, city, fmt, n, args, work, srid, score=True):
    out = work / "runs" / f"{size_label(n)}-{args.profile}-{fmt}-{tool}"
    if out.exists():
        shutil.rmtree(out)
    if tool in PEERS:
        out.mkdir(parents=True)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
    port = free_port(args.pg_port) if tool == "postgis" else None
    cmd, links = tool_command(tool, bindir, city, fmt, out, args, srid, port)
    logfile = work / "runs" / f"{size_label(n)}-{args.profile}-{fmt}-{tool}.log"
    limit_kb = int(args.memory_limit * 2**20) if args.memory_limit else None
    settle([city / f"buildings.{fmt}", city / f"addresses.{fmt}"])
    r = measure(cmd, logfile, args.timeout, limit_kb)
    r.update(tool=tool, size=n, profile=args.profile, format=fmt, log=str(logfile))
    text = logfile.read_text(errors="replace")
    if r["timed_out"]:
        r["error"] = f"timed out after {args.timeout} s"
    elif r["over_memory_limit"]:
        r["error"] = (f"stopped at {args.memory_limit:g} GB (--memory-limit) after "
                      f"{r['outer_wall_s']:.0f} s")
    elif r["returncode"] != 0 or r.get("exit_status", 0) != 0:
        tail = " | ".join(text.strip().splitlines()[-3:])
        r["error"] = f"exit {r.get('exit_status', r['returncode'])}: {tail}"
    elif not links.exists():
        r["error"] = f"no {links.name} written"
    # What each row reports: wall, CPU, memory.
    r["wall"], r["cpu"] = r.get("wall_s", r["outer_wall_s"]), r["cpu_s"]
    r["mem_kb"], r["mem_how"] = r.get("max_rss_kb", 0), "max RSS (time -v)"
    if tool == "postgis" and "error" not in r:
        m = re.search(r"postgis-phases: (.*)", text)
        if m:
            ph = {k: float(v) for k, v in (kv.split("=") for kv in m.group(1).split())}
            r["phases"] = ph
            r["wall"] = ph["work"]
            r["cpu"] = r["cpu_s"] - ph.get("initdb_cpu", 0.0)
        r["mem_kb"], r["mem_how"] = r["tree_peak_pss_kb"], "peak sum of PSS, client + server (sampled)"
    if "error" not in r:
        # (Repeats of a run write the same links: scored once.)
        if score:
            r["accuracy"] = evaluate(bindir, links, city / "truth.csv")
        if not args.keep_outputs:
            shutil.rmtree(out, ignore_errors=True)
    status = r.get("error") or "wall %.2f s, cpu %.2f s, mem %.0f MB" % (r["wall"], r["cpu"], r["mem_kb"] / 1024) + (
        ", P %.4f R %.4f" % (r["accuracy"]["precision"], r["accuracy"]["recall"]) if "accuracy" in r else "")
    log(f"  {size_label(n)} {fmt} {tool}: {status}")
    return r


def median_run(runs):
    """The run with the median wall time (the lower middle of an even count), carrying every
    run's wall time; a failed run is reported as such."""
    failed = [r for r in runs if "error" in r]
    if failed:
        return failed[0]
    ordered = sorted(runs, key=lambda r: r["wall"])
    r = dict(ordered[(len(ordered) - 1) // 2])
    r["walls"] = [x["wall"] for x in ordered]
    r["accuracy"] = next(x["accuracy"] for x in runs if "accuracy" in x)
    return r


# ---------------------------------------------------------------------------------------------
# Report

def fmt_s(x):
    return "%.2f" % x if x < 100 else "%.0f" % x


def fmt_mb(kb):
    return "%.0f" % (kb / 1024)


def report(results, args, meta):
    lines = []
    lines.append(f"Run {meta['started']} → {meta['finished']} on {meta['host']} "
                 f"({meta['cpus']} CPUs, {meta['mem_gb']:.0f} GB RAM; load average at start "
                 f"{meta['load_start']}, at end {meta['load_end']}). flyr-link sources at {meta['flyr_commit']} "
                 f"({meta.get('configuration', '?')}), "
                 f"{meta['versions']}. flyr-synth profile {getattr(args, 'profile', 'default')}, "
                 f"seed {args.seed}; flyr-link max distance "
                 f"{args.flyr_max_distance or 'default'}, peers {args.peer_max_distance} m.")
    lines.append("")
    lines.append("| buildings | addresses | format | tool | wall s | CPU s | peak MB | wall ms / 1k bldg "
                 "| flyr-link / tool: wall | CPU | memory | precision | recall | load before |")
    lines.append("|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    by = {(r["size"], r["format"], r["tool"]): r for r in results}
    for r in results:
        n, fmt, tool = r["size"], r["format"], r["tool"]
        addrs = r.get("accuracy", {}).get("addresses", "")
        if "skipped" in r:
            lines.append(f"| {n:,} | | {fmt} | {tool} | skipped: {r['skipped']} | | | | | | | | | |")
            continue
        if "error" in r:
            lines.append(f"| {n:,} | | {fmt} | {tool} | **failed**: {r['error'][:120]} | {fmt_s(r['cpu']) if 'user_s' in r else ''} | "
                         f"{fmt_mb(r['tree_peak_pss_kb'])} (reached) | | | | | | | {r.get('load1_before', 0):.1f} |")
            continue
        fl = by.get((n, fmt, "flyr-link"))
        ratios = ["", "", ""]
        if tool in PEERS and fl and "error" not in fl:
            ratios = ["%.3f" % (fl["wall"] / r["wall"]), "%.3f" % (fl["cpu"] / r["cpu"]) if r["cpu"] else "",
                      "%.3f" % (fl["mem_kb"] / r["mem_kb"]) if r["mem_kb"] else ""]
        acc = r["accuracy"]
        walls = r.get("walls", [])
        spread = f" ({fmt_s(walls[0])}–{fmt_s(walls[-1])})" if len(walls) > 1 else ""
        lines.append(f"| {n:,} | {addrs:,} | {fmt} | {tool} | {fmt_s(r['wall'])}{spread} | {fmt_s(r['cpu'])} | "
                     f"{fmt_mb(r['mem_kb'])} | {1000 * r['wall'] / (n / 1000):.2f} | {' | '.join(ratios)} | "
                     f"{acc['precision']:.4f} | {acc['recall']:.4f} | {r.get('load1_before', 0):.1f} |")
    lines.append("")
    if getattr(args, "repeat", 1) > 1:
        lines.append(f"Each row: the run with the median wall time of {args.repeat}, the tools taking turns; "
                     "in brackets the fastest and slowest of them. CPU and memory are the median run's.")
        lines.append("")
    lines.append("Memory: flyr-link, GeoPandas, DuckDB and SedonaDB: maximum resident set size of the process "
                 "(`/usr/bin/time -v`). "
                 "PostGIS: peak of the summed proportional set size (PSS) of every process of the run — the "
                 "script, ogr2ogr, psql, the postmaster and its backends — sampled every 0.2 s. PostGIS wall "
                 "time: ogr2ogr loading + GiST indexes + ANALYZE + the query and COPY to CSV (cluster creation "
                 "and shutdown excluded); its CPU time includes the server's processes (they are children of the "
                 "timed script), initdb excluded. Load before: the 1-minute load average when the run "
                 "started (2 would mean both cores already busy with other work). Every run starts with its "
                 "inputs read once into the page cache and earlier outputs written back (untimed, the same for "
                 "every tool).")
    pg = [r for r in results if r["tool"] == "postgis" and "error" not in r and "skipped" not in r]
    if pg:
        lines.append("")
        lines.append("PostGIS memory, other ways of counting (MB): " + "; ".join(
            "%s %s: summed PSS %s, summed RSS %s, sum of each process's VmHWM %s (%d processes)" % (
                size_label(r["size"]), r["format"], fmt_mb(r["tree_peak_pss_kb"]), fmt_mb(r["tree_peak_rss_kb"]),
                fmt_mb(r["tree_sum_hwm_kb"]), r["processes_seen"]) for r in pg) + ".")
    lines.append("")
    # Criteria of issue 6
    lines.append("| buildings | format | flyr-link wall / faster peer | memory / leaner peer | all outputs / links only "
                 "| flyr-link precision, recall ≥ peers' |")
    lines.append("|---:|---|---:|---:|---:|---|")
    for n in sorted({r["size"] for r in results}):
        for fmt in args.formats:
            fl = by.get((n, fmt, "flyr-link"))
            if not fl or "error" in fl or "skipped" in fl:
                continue
            peers = [by[(n, fmt, p)] for p in PEERS if (n, fmt, p) in by and "error" not in by[(n, fmt, p)]
                     and "skipped" not in by[(n, fmt, p)]]
            w = m = acc = "no peer"
            if peers:
                fast = min(peers, key=lambda p: p["wall"])
                lean = min(peers, key=lambda p: p["mem_kb"])
                w = "%.3f (%s)" % (fl["wall"] / fast["wall"], fast["tool"])
                m = "%.3f (%s)" % (fl["mem_kb"] / lean["mem_kb"], lean["tool"])
                okp = all(fl["accuracy"]["precision"] >= p["accuracy"]["precision"] for p in peers)
                okr = all(fl["accuracy"]["recall"] >= p["accuracy"]["recall"] for p in peers)
                acc = "precision %s, recall %s" % ("yes" if okp else "**no**", "yes" if okr else "**no**")
            al = by.get((n, fmt, "flyr-link-all"))
            a = "%.2f" % (al["wall"] / fl["wall"]) if al and "error" not in al and "skipped" not in al else ""
            lines.append(f"| {n:,} | {fmt} | {w} | {m} | {a} | {acc} |")
    big = [r for r in results if r["tool"] in ("flyr-link", "flyr-link-all") and r["size"] >= 10_000_000
           and "skipped" not in r]
    if big:
        lines.append("")
        for r in big:
            if "error" in r:
                verdict = f"did not complete: {r['error']} (peak {fmt_mb(r['tree_peak_pss_kb'])} MB)"
            else:
                verdict = "completed in %s s, peak %s MB: %s 8 GB" % (
                    fmt_s(r["wall"]), fmt_mb(r["mem_kb"]), "under" if r["mem_kb"] < 8 * 2**20 else "**over**")
            lines.append(f"- {r['tool']} at {size_label(r['size'])} buildings, {r['format']}: {verdict}.")
    lines.append("")
    # Scaling: time per 1k buildings against n log n
    lines.append("flyr-link (links only) scaling: if the work is n log n, the time per 1,000 buildings grows "
                 "between two sizes by log(n2)/log(n1).")
    lines.append("")
    lines.append("| format | from → to | ms / 1k bldg | ratio | log(n2)/log(n1) | peak MB at n2 |")
    lines.append("|---|---|---|---:|---:|---:|")
    for fmt in args.formats:
        rows = sorted((r for r in results if r["tool"] == "flyr-link" and r["format"] == fmt
                       and "error" not in r and "skipped" not in r), key=lambda r: r["size"])
        for r1, r2 in zip(rows, rows[1:]):
            p1, p2 = r1["wall"] / r1["size"] * 1e6, r2["wall"] / r2["size"] * 1e6
            lines.append(f"| {fmt} | {size_label(r1['size'])} → {size_label(r2['size'])} | {p1:.2f} → {p2:.2f} | "
                         f"{p2 / p1:.2f} | {math.log(r2['size']) / math.log(r1['size']):.2f} | {fmt_mb(r2['mem_kb'])} |")
    return "\n".join(lines) + "\n"


def versions(py):
    v = []
    try:
        v.append(subprocess.run([py, "-c", "import geopandas, pyogrio, shapely; print('GeoPandas %s, pyogrio %s "
                                 "(GDAL %s), shapely %s (GEOS %s)' % (geopandas.__version__, pyogrio.__version__, "
                                 "pyogrio.__gdal_version_string__, shapely.__version__, shapely.geos_version_string))"],
                                capture_output=True, text=True).stdout.strip())
    except OSError:
        pass
    try:
        # The DuckDB spatial extension's version as DuckDB reports it once LOADed from the wheel.
        v.append(subprocess.run([py, "-c", (
            "import sys, importlib.metadata as m; sys.path.insert(0, %r)\n"
            "import duckdb; from duckdb_link import spatial_extension\n"
            "con = duckdb.connect(config={'autoinstall_known_extensions': False, 'autoload_known_extensions': False})\n"
            "con.execute(\"LOAD '%%s'\" %% spatial_extension()[1])\n"
            "e = con.sql(\"SELECT extension_version FROM duckdb_extensions() WHERE extension_name = 'spatial'\").fetchone()[0]\n"
            "print('DuckDB %%s with spatial %%s (duckdb-extension-spatial %%s)' %% (duckdb.__version__, e, "
            "m.version('duckdb-extension-spatial')))") % str(HERE / "peers")],
            capture_output=True, text=True).stdout.strip())
        v.append(subprocess.run([py, "-c", "import sedonadb; print('SedonaDB %s' % sedonadb.__version__)"],
                                capture_output=True, text=True).stdout.strip())
    except OSError:
        pass
    try:
        pg = subprocess.run(["/usr/lib/postgresql/15/bin/postgres", "--version"], capture_output=True, text=True)
        v.append(pg.stdout.strip())
        ctl = Path("/usr/share/postgresql/15/extension/postgis.control").read_text()
        m = re.search(r"default_version\s*=\s*'([^']+)'", ctl)
        if m:
            v.append("PostGIS " + m.group(1))
    except OSError:
        pass
    try:
        v.append(subprocess.run(["ogr2ogr", "--version"], capture_output=True, text=True).stdout.strip())
    except OSError:
        pass
    return "; ".join(x for x in v if x)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10k,100k,1m,10m", help="building counts (default 10k,100k,1m,10m)")
    ap.add_argument("--formats", default="fgb,geojson",
                    help="any of fgb,geojson,parquet (default fgb,geojson; parquet: GeoParquet written by GeoPandas)")
    ap.add_argument("--tools", default=",".join(TOOLS), help="default: " + ",".join(TOOLS))
    ap.add_argument("--peers", default=None, help="shorthand: which peers to run besides flyr-link")
    ap.add_argument("--peer-max-size", default=None, type=parse_size,
                    help="run the peers up to this many buildings (default: GeoPandas up to 1m, because at "
                         "10M it needs about 19 GB; PostGIS, DuckDB and SedonaDB at every size)")
    ap.add_argument("--peers-at-all-sizes", action="store_true", help="run every peer at every size")
    ap.add_argument("--smoke", action="store_true",
                    help="CI smoke test: --sizes 10k --formats fgb, results under benchmarks/work/")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="default", choices=PROFILES,
                    help="flyr-synth generate --profile (default: default)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of every tool, taking turns; each figure from the median run (default 1)")
    ap.add_argument("--peer-max-distance", default="30", help="peers' proximity radius, metres (default 30)")
    ap.add_argument("--flyr-max-distance", default=None, help="flyr-link --max-distance (default: its own)")
    ap.add_argument("--work", default=str(HERE / "work"), help="cities and run outputs (default benchmarks/work)")
    ap.add_argument("--results", default=None, help="results directory (default benchmarks/results)")
    ap.add_argument("--configuration", default="release", choices=["release", "debug"])
    ap.add_argument("--scratch-path", default=".build-bench", help="swift build scratch path (default .build-bench)")
    ap.add_argument("--bin-dir", default=None, help="use flyr-link/flyr-synth from here; do not build")
    ap.add_argument("--pg-port", type=int, default=55433)
    ap.add_argument("--timeout", type=float, default=4 * 3600, help="per tool run, seconds (default 4 h)")
    ap.add_argument("--memory-limit", type=float, default=round(os.sysconf("SC_PAGE_SIZE") *
                    os.sysconf("SC_PHYS_PAGES") / 2**30 * 0.6, 1),
                    help="stop a run whose process tree's summed PSS exceeds this many GB "
                         "(default 60%% of RAM; protects a shared machine; 0 = no limit)")
    ap.add_argument("--render", metavar="RESULTS.json", help="only print the tables of an earlier run's JSON")
    ap.add_argument("--fresh", action="store_true", help="regenerate the cities even when cached")
    ap.add_argument("--keep-outputs", action="store_true", help="keep each tool's output directory")
    args = ap.parse_args()
    if args.render:
        saved = json.loads(Path(args.render).read_text())
        print(report(saved["results"], argparse.Namespace(**saved["args"]), saved["meta"]))
        return 0
    if args.smoke:
        args.sizes, args.formats = "10k", "fgb"
        if args.results is None:
            args.results = str(Path(args.work) / "results")
    sizes = sorted({parse_size(s) for s in args.sizes.split(",") if s})
    args.formats = [f for f in args.formats.split(",") if f]
    for f in args.formats:
        if f not in FORMATS:
            ap.error(f"unknown format {f} (known: {', '.join(FORMATS)})")
    tools = [t for t in args.tools.split(",") if t]
    if args.peers is not None:
        wanted = [p for p in args.peers.split(",") if p]
        tools = [t for t in tools if t not in PEERS] + wanted
    for t in tools:
        if t not in TOOLS:
            ap.error(f"unknown tool {t}")
    peers = [t for t in tools if t in PEERS]
    work = Path(args.work).resolve()
    results_dir = Path(args.results or HERE / "results").resolve()
    work.mkdir(parents=True, exist_ok=True)
    results_dir.mkdir(parents=True, exist_ok=True)

    started = dt.datetime.now(dt.timezone.utc)
    load_start = "%.2f" % os.getloadavg()[0]
    try:
        ensure_system(peers)
        # (GeoPandas in the venv writes the GeoParquet.)
        py = ensure_venv() if any(p in PY_PEERS for p in peers) or "parquet" in args.formats else venv_python()
        bindir = build(args)
    except HarnessError as e:
        log(f"benchmark harness: FAILED to set up: {e}")
        return 1
    # The flyr-link measured: the last commit touching its sources (and whether they are modified).
    commit = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h", "--", "Sources", "Package.swift"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    if subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD", "--", "Sources", "Package.swift"]).returncode:
        commit += "+modified"
    if args.bin_dir:
        commit = f"binaries from {bindir}"
    results = []
    halted = None
    try:
        for n in sizes:
            city = ensure_city(bindir, work, n, args.seed, args.profile, args.formats, args.fresh)
            srid = utm_srid(city)
            for fmt in args.formats:
                runs = {}
                for tool in tools:
                    why = format_skip(tool, fmt)
                    if why:
                        runs[tool] = {"tool": tool, "size": n, "profile": args.profile, "format": fmt,
                                      "skipped": why}
                        continue
                    if tool in PEERS and not args.peers_at_all_sizes:
                        limit, why = PEER_DEFAULT_MAX.get(tool, (None, ""))
                        if args.peer_max_size is not None:
                            limit, why = args.peer_max_size, "--peer-max-size"
                        if limit is not None and n > limit:
                            runs[tool] = {"tool": tool, "size": n, "profile": args.profile, "format": fmt, "skipped":
                                          f"{why} (run up to {size_label(limit)}; --peers-at-all-sizes "
                                          "forces it)"}
                            continue
                    runs[tool] = []
                try:
                    for rep in range(max(1, args.repeat)):
                        for tool in tools:
                            if isinstance(runs[tool], list) and not any("error" in r for r in runs[tool]):
                                runs[tool].append(run_tool(tool, bindir, city, fmt, n, args, work, srid,
                                                           score=not runs[tool]))
                finally:
                    results.extend(median_run(runs[t]) if isinstance(runs[t], list) else runs[t]
                                   for t in tools if runs[t])
    except KeyboardInterrupt:
        log("interrupted: reporting what ran")
    except HarnessError as e:
        # (A city that could not be made or converted, a links table that could not be scored.)
        halted = str(e)
        log(f"benchmark harness: {halted}; reporting what ran")
    finished = dt.datetime.now(dt.timezone.utc)
    meta = {"started": started.strftime("%Y-%m-%d %H:%M UTC"), "finished": finished.strftime("%H:%M UTC"),
            "host": platform.node(), "cpus": os.cpu_count(),
            "mem_gb": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30,
            "load_start": load_start, "load_end": "%.2f" % os.getloadavg()[0], "flyr_commit": commit,
            "versions": versions(py), "configuration": args.configuration if not args.bin_dir else str(bindir),
            "profile": args.profile, "seed": args.seed}
    table = report(results, args, meta)
    print(table)
    stem = (("smoke-" if args.smoke else "") + started.strftime("%Y%m%dT%H%MZ")
            + ("" if args.profile == "default" else f"-{args.profile}"))
    (results_dir / f"{stem}.md").write_text(table)
    (results_dir / f"{stem}.json").write_text(json.dumps({"meta": meta, "args": vars(args), "results": results},
                                                         indent=1, default=str))
    log(f"results: {results_dir / stem}.md and .json")
    if args.smoke:
        # Not a timing assertion: only that every tool produced a sensible links table.
        for r in results:
            acc = r.get("accuracy")
            if acc and (acc["precision"] < 0.9 or acc["recall"] < 0.9):
                r["error"] = "links table implausible: precision %.3f, recall %.3f (< 0.9)" % (
                    acc["precision"], acc["recall"])
    failed = [r for r in results if "error" in r]
    if failed:
        log(f"benchmark harness: {len(failed)} run(s) FAILED: " +
            "; ".join(f"{size_label(r['size'])} {r['format']} {r['tool']}: {r['error']}" for r in failed))
    if halted:
        log(f"benchmark harness: FAILED: {halted}")
    return 1 if failed or halted else 0


if __name__ == "__main__":
    sys.exit(main())
