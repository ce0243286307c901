#!/usr/bin/env bash
# A distributed run against one run, on this machine: `flyr-link run` once, then
# distributed/flyr-link-spark on a local standalone cluster of WORKERS one-core workers, each
# flyr-link process (the plan, every tile task, the sum, the outputs) timed by /usr/bin/time.
#   [FLYR_LINK_BIN=…/flyr-link] [FLYR_PLAN_SHARES=N] benchmarks/distributed-overhead.sh BUILDINGS ADDRESSES TILES WORKERS [run options, e.g. --only links]
# (FLYR_PLAN_SHARES: the launcher's --plan-shares; 0: the plan from a whole read on the driver.)
# Prints one run's wall / CPU / peak, the whole job's wall, and per step: tasks, wall (mean, max),
# CPU (sum), peak (max); then checks that the outputs are the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
buildings=$1 addresses=$2 tiles=$3 workers=$4
shift 4
# FLYR_LINK_BIN: another build's binary, to compare builds side by side.
flyr=${FLYR_LINK_BIN:-$(pwd)/.build/release/flyr-link}
work=$(mktemp -d "${TMPDIR:-/tmp}/flyr-spark-bench.XXXXXX")
trap 'distributed/local-cluster.sh stop "$work/cluster"; rm -rf "$work"' EXIT
/usr/bin/time -f "%e %U %S %M" -o "$work/single.time" "$flyr" run --buildings "$buildings" --addresses "$addresses" \
  --out "$work/single" --quiet "$@" >/dev/null
master=$(distributed/local-cluster.sh start "$work/cluster" "$workers")
cat >"$work/flyr-link" <<WRAP
#!/bin/sh
# Each call timed: wall, user, sys, peak kB, then what it was.
exec /usr/bin/time -a -o "$work/steps.time" -f "%e %U %S %M \$1 \$2" "$flyr" "\$@"
WRAP
chmod +x "$work/flyr-link"
/usr/bin/time -f "%e" -o "$work/job.time" env FLYR_LINK="$work/flyr-link" distributed/flyr-link-spark --master "$master" \
  --tiles "$tiles" ${FLYR_PLAN_SHARES:+--plan-shares "$FLYR_PLAN_SHARES"} --buildings "$buildings" --addresses "$addresses" --out "$work/dist" "$@" >/dev/null 2>"$work/job.err" \
  || { cat "$work/job.err" >&2; exit 1; }
read -r wall user sys kb <"$work/single.time"
printf "one run:          wall %7.2f s  CPU %7.2f s  peak %5d MB\n" "$wall" "$(echo "$user + $sys" | bc)" $((kb / 1024))
printf "distributed job:  wall %7.2f s  (%s workers, %s tiles)\n" "$(cat "$work/job.time")" "$workers" "$tiles"
python3 benchmarks/summarize-steps.py "$work/steps.time"
for f in "$work"/single/*; do
  f=$(basename "$f")
  case "$f" in report.*) ;; *) cmp -s "$work/single/$f" "$work/dist/$f" || { echo "$f differs" >&2; exit 1; } ;; esac
done
echo "outputs: the same bytes (report.json and report.html not compared: timings)"
