"""The Spark driver of a distributed flyr-link run (submitted by distributed/flyr-link-spark).

The steps (docs/distributed.md):
  1. plan: `flyr-link plan` cuts the run into tiles, each with its halo; for GeoParquet sources it
     is made from shares of their row groups, read in two passes of Spark tasks
     (`flyr-link plan-share scan`, `frame` on the driver, `measure`), not from a whole read;
  2. every tile's part of the run's measures, one Spark task a tile (`flyr-link tile measures`);
  3. their sum, on the driver (`flyr-link tile sum`);
  4. every tile's decisions, one Spark task a tile (`flyr-link tile link`);
  5. every tile's part of the outputs, one Spark task a tile (`flyr-link tile outputs`): the rows
     of its own addresses and buildings, made by the run's own code from the decisions around it;
  6. their merge, on the driver (`flyr-link run --parts`): the same files, byte for byte, as one
     `flyr-link run` with the same options. (A database is written on the driver from the
     decisions instead: `flyr-link run --decisions`.)
The executors run the flyr-link binary the driver ships them (SparkContext.addFile). A task writes
its file whole or not at all, so a task that fails or is killed is simply run again by Spark; the
work directory goes once the run has ended, whichever way it ended.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import uuid

from pyspark import SparkConf, SparkContext, SparkFiles

# The options of `flyr-link run` that `flyr-link plan` takes too (they decide the links and what
# the tiles' outputs pass writes), and whether each takes a value. Every option also goes to the final `flyr-link run`.
PLAN_OPTIONS = {
    "--buildings-layer": True, "--buildings-crs": True, "--addresses-layer": True, "--addresses-crs": True,
    "--territory": True, "--territory-layer": True, "--address-field": True, "--building-field": True,
    "--max-distance": True, "--units": True, "--parquet-reader": True, "--height-unit": True,
    "--link-model": True, "--allow-empty": False, "--only": True, "--campaign": True,
}


# The options of `flyr-link run` that take no value.
FLAGS = {"--overwrite", "--no-html", "--allow-empty", "--quiet", "-q"}
DATABASE = re.compile(r"^(postgres(ql)?://|PG:)")


def masked(text):
    """A connection string's password as flyr-link prints it: ***."""
    text = re.sub(r"(://[^:/@\s]*:)[^@\s]*@", r"\1***@", text)
    return re.sub(r"(password\s*=\s*)('[^']*'|\S+)", r"\1***", text)


class TaskFailed(Exception):
    pass


class Arguments(argparse.ArgumentParser):
    """A bad argument: one line on the launcher's stderr (see `say`), exit status 2."""
    def error(self, message):
        say(message)
        raise SystemExit(2)


def parse(argv):
    p = Arguments(prog="flyr-link-spark", add_help=True)
    p.add_argument("--flyr-link", required=True, help=argparse.SUPPRESS)
    p.add_argument("--tiles", type=int, help="how many tiles (default: one per 100,000 addresses)")
    p.add_argument("--work", help="a directory every worker sees, for the plan and the tiles' files (default: a hidden sibling of --out)")
    p.add_argument("--plan-shares", type=int, help="read the sources in so many shares for the plan (GeoParquet; default: twice the cluster's cores; 0: the plan reads them whole on the driver)")
    p.add_argument("--keep-work", action="store_true", help="keep the work directory (the plan, the measures, the decisions) for inspection")
    p.add_argument("--buildings", required=True)
    p.add_argument("--addresses", required=True)
    p.add_argument("--out", required=True)
    args, rest = p.parse_known_args(argv)
    if args.tiles is not None and args.tiles < 1:
        p.error("--tiles must be at least 1")
    if args.plan_shares is not None and args.plan_shares < 0:
        p.error("--plan-shares must be 0 or more")
    if any(a == "--matcher" or a.startswith("--matcher=") for a in rest):
        p.error("--matcher: a distributed run links with the link model (the baseline runs on one machine: flyr-link run --matcher naive)")
    if any(a == "--write-evidence" or a.startswith("--write-evidence=") for a in rest):
        p.error("--write-evidence is not written by a distributed run")
    i = 0
    while i < len(rest):  # an argument that is not an option's value: a pipeline file
        if not rest[i].startswith("-"):
            p.error(f"{rest[i]}: give the sources and options as options (a pipeline file is not read by a distributed run)")
        i += 1 if rest[i] in FLAGS or "=" in rest[i] else 2
    if DATABASE.match(args.out) and not args.work:
        p.error("--out names a database: give --work DIR, a directory every worker sees")
    plan_args, i = [], 0
    while i < len(rest):
        name = rest[i].split("=", 1)[0]
        if name in PLAN_OPTIONS:
            takes = PLAN_OPTIONS[name] and "=" not in rest[i]
            plan_args += rest[i:i + 1 + takes]
            i += 1 + takes
        else:
            i += 1
    return args, rest, plan_args


def say(line):
    """Progress and errors, a line each, for the launcher's stderr: spark-submit gives a Python
    driver's stderr to its stdout, so the lines go to the file the launcher follows."""
    text = f"flyr-link-spark: {line}\n".encode()
    status = os.environ.get("FLYR_SPARK_STATUS")
    try:
        # Appended, never created: once the launcher has removed it, the line goes to stderr.
        fd = os.open(status, os.O_WRONLY | os.O_APPEND) if status else None
    except OSError:
        fd = None
    if fd is None:
        sys.stderr.write(text.decode())
        sys.stderr.flush()
        return
    try:
        os.write(fd, text)
    finally:
        os.close(fd)


def fail(line):
    say(line)
    raise SystemExit(1)


def flyr_link(binary, *arguments):
    """Runs flyr-link on the driver; its error line is the run's, and its warnings are passed on
    (e.g. the merge's)."""
    p = subprocess.run([binary, *arguments], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail(f"flyr-link {arguments[0]} failed: {masked(p.stderr.strip()) or p.returncode}")
    for line in p.stderr.splitlines():
        if line.startswith("flyr-link: warning: "):
            say(masked(line[len("flyr-link: "):]))
    return p.stdout


def task(binary_name, what, arguments):
    """A Spark task's body: flyr-link with `arguments(index)`, by the binary shipped to this
    executor; `what(index)` names the task in its error."""
    def run(index):
        binary = SparkFiles.get(binary_name)
        os.chmod(binary, 0o755)
        p = subprocess.run([binary, *arguments(index)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            why = p.stderr.strip() or (f"killed by signal {-p.returncode}" if p.returncode < 0 else f"exit status {p.returncode}")
            raise TaskFailed(f"[flyr-link-spark] {what(index)} failed: {why} [/flyr-link-spark]")
        return index
    return run


def tile_task(binary_name, pass_name, plan, out_of, measures=None):
    """One pass of one tile."""
    def arguments(tile):
        command = ["tile", pass_name, "--plan", plan, "--tile", str(tile), "--threads", "1"]
        if out_of:
            command += ["--out", out_of(tile)]
        if measures:
            command += ["--measures", measures]
        return command
    return task(binary_name, lambda tile: f"tile {tile} ({pass_name})", arguments)


def share_task(binary_name, step, count, directory, source_args):
    """One step of the plan over one share of the sources (`flyr-link plan-share`)."""
    return task(binary_name, lambda k: f"share {k} of the plan ({step})",
                lambda k: ["plan-share", step, *source_args, "--share", f"{k}/{count}", "--shares", directory, "--threads", "1"])


PARQUET = (".parquet", ".geoparquet")


def geoparquet(source):
    """Whether a source is local GeoParquet (a file, or a directory with .parquet parts under it):
    what the plan can read in shares. (A remote one is read whole: its report counts the whole
    read's requests.)"""
    if remote(source):
        return False
    if os.path.isdir(source):
        return any(name.lower().endswith(PARQUET) for _, _, names in os.walk(source, followlinks=True) for name in names)
    return source.lower().endswith(PARQUET)


def remote(source):
    """A URL (s3://, https://…), a GDAL virtual path or a database: not a local path."""
    return re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", source) is not None or source.startswith(("/vsi", "PG:"))


# The options whose values are paths (a database or a URL is left as it is).
PATH_OPTIONS = {"--buildings", "--addresses", "--territory", "--link-model"}


def absolute(arguments):
    """`arguments` with the paths of PATH_OPTIONS made absolute (against the driver's directory)."""
    out, i = [], 0
    while i < len(arguments):
        name, _, value = arguments[i].partition("=")
        if name in PATH_OPTIONS:
            value = value if "=" in arguments[i] else arguments[i + 1]
            if not (remote(value) or value.startswith("/")):
                value = os.path.abspath(value)
            out += [name, value]
            i += 1 if "=" in arguments[i] else 2
        else:
            out.append(arguments[i])
            i += 1
    return out


def make_plan(sc, binary, args, plan_args, plan, work):
    """The plan: from shares of the sources, in Spark tasks, when both are local GeoParquet (and
    the shares can decide it); else from a whole read on the driver."""
    sources = ["--buildings", args.buildings, "--addresses", args.addresses]
    tiles = ["--tiles", str(args.tiles)] if args.tiles else []
    name = os.path.basename(binary)
    count = args.plan_shares if args.plan_shares is not None else 2 * sc.defaultParallelism
    reader = [plan_args[i + 1] for i in range(len(plan_args) - 1) if plan_args[i] == "--parquet-reader"]
    reader += [a.split("=", 1)[1] for a in plan_args if a.startswith("--parquet-reader=")]
    if count == 0:
        why = "--plan-shares 0"
    elif not (geoparquet(args.buildings) and geoparquet(args.addresses)):
        why = "the sources are not both local GeoParquet"
    elif "gdal" in reader:
        why = "--parquet-reader gdal"
    else:
        shares = os.path.join(work, "shares")
        os.makedirs(shares)
        # (The tasks run in the executors' directories: a path is given to them whole.)
        share_args = absolute(sources + plan_args)
        failed = []
        if run_tasks(sc, count, share_task(name, "scan", count, shares, share_args), failed.append):
            verdict = flyr_link(binary, "plan-share", "frame", *share_args, "--count", str(count), "--shares", shares).strip()
            if verdict == "frame":
                if run_tasks(sc, count, share_task(name, "measure", count, shares, share_args), failed.append):
                    flyr_link(binary, "plan", *sources, *tiles, *plan_args, "--shares", shares, "--out", plan)
                    say(f"plan: made from {count} shares of the sources")
                    return
            else:
                failed.append(verdict[len("whole: "):])
        # (A share that fails, e.g. a CRS its rows alone cannot tell: the whole read decides.)
        why = failed[0]
    say(f"plan: the sources read whole on the driver ({why})")
    flyr_link(binary, "plan", *sources, *tiles, *plan_args, "--out", plan)


def merged(out):
    """Whether the outputs are the tiles' parts merged (files: a directory, FlatGeobuf, GeoParquet,
    a GeoPackage), or made on the driver from the decisions (a database: one writer)."""
    return DATABASE.match(out) is None


def run_tasks(sc, count, body, failing=None):
    """Every task, or the first failure's line: to `fail` (the job ends), or to `failing`, which
    the plan's shares give (it then reads the sources whole)."""
    try:
        done = sc.parallelize(range(count), count).map(body).collect()
    except Exception as e:  # py4j's error: the task's own message, after Spark's retries
        found = re.search(r"TaskFailed: \[flyr-link-spark\] (.*?) \[/flyr-link-spark\]", str(e), re.S)
        if STOPPING:
            fail("stopped; nothing written at --out")
        (failing or fail)(found.group(1) if found else f"the Spark job failed: {str(e).splitlines()[0]}")
        return False
    assert sorted(done) == list(range(count))
    return True


def main(argv):
    args, run_args, plan_args = parse(argv)
    binary = args.flyr_link
    # A PostgreSQL target (postgresql://…, PG:…) is passed on as given; the work directory is then
    # beside the current one unless --work names it.
    database = DATABASE.match(args.out) is not None
    out = args.out if database else os.path.abspath(args.out)
    beside = os.getcwd() if database else os.path.dirname(out)
    name = "postgresql" if database else os.path.basename(out)
    work = os.path.abspath(args.work or os.path.join(beside, f".{name}.flyr-spark-{uuid.uuid4().hex[:8]}"))
    if os.path.exists(work):
        fail(f"--work {work} exists: give a directory that does not (it is removed at the end)")
    # The work directory is removed at the end and --out is replaced whole: neither may hold the other.
    if not database:
        real_out, real_work = os.path.realpath(out), os.path.realpath(work)
        if real_out == real_work or real_out.startswith(real_work + os.sep) or real_work.startswith(real_out + os.sep):
            fail(f"--work {work} and --out {out}: one lies in the other (the work directory is removed at the end, --out replaced whole)")
    os.makedirs(work)
    decisions = os.path.join(work, "decisions")
    parts = os.path.join(work, "measures")
    os.makedirs(decisions)
    os.makedirs(parts)
    sc = None
    try:
        plan = os.path.join(decisions, "plan.json")
        sources = ["--buildings", args.buildings, "--addresses", args.addresses]
        sc = SparkContext(conf=SparkConf().setAppName("flyr-link"))
        sc.setLogLevel("ERROR")
        sc.addFile(binary)
        make_plan(sc, binary, args, plan_args, plan, work)
        with open(plan) as f:
            planned = json.load(f)
        count = len(planned["tiles"])
        # (A layer a tile cannot read in part is cut by the plan into each tile's pack.)
        packed = " and ".join(planned.get("packed", []))
        say(f"plan: {count} tiles" + (f"; the {packed} cut into each tile's pack" if packed else ""))
        run_tasks(sc, count, tile_task(os.path.basename(binary), "measures", plan, lambda t: os.path.join(parts, f"{t}.json")))
        say(f"measures: {count} tiles")
        measures = os.path.join(work, "measures.json")
        flyr_link(binary, "tile", "sum", "--plan", plan, *[os.path.join(parts, f"{t}.json") for t in range(count)], "--out", measures)
        run_tasks(sc, count, tile_task(os.path.basename(binary), "link", plan, lambda t: os.path.join(decisions, f"tile-{t:06d}.decisions"), measures))
        if merged(out):
            run_tasks(sc, count, tile_task(os.path.basename(binary), "outputs", plan, None))
            say(f"outputs: {count} tiles; merging them")
            step = ["--parts", decisions]
        else:
            say(f"decisions: {count} tiles; the outputs next")
            step = ["--decisions", decisions]
        sc.stop()
        sc = None
        summary = flyr_link(binary, "run", *sources, *run_args, "--out", out, *step)
        print(summary, end="")
        say(f"{count} tiles → {masked(out)}")
    finally:
        if sc is not None:
            sc.stop()
        if not args.keep_work:
            shutil.rmtree(work, ignore_errors=True)


STOPPING = []


def stopped(signum, frame):
    """SIGTERM (the launcher stopping): through `main`'s cleanup, then out."""
    STOPPING.append(signum)
    raise SystemExit(143)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, stopped)
    try:
        main(sys.argv[1:])
    except SystemExit:
        raise
    except BaseException as e:  # anything unforeseen: one line where the others go, then the trace
        say(f"{type(e).__name__}: {e}")
        raise
