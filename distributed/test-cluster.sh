#!/usr/bin/env bash
# The distributed run on a real Spark standalone cluster on 127.0.0.1: one master and two workers,
# started here and stopped here by their process groups. On a synthetic city of 200,000 buildings
# (flyr-synth, hard profile; GeoParquet) cut into 16 tiles:
#   1. every output of distributed/flyr-link-spark is byte-identical to `flyr-link run`'s (report.json's
#      timings aside), and the tiles' edges cut through townhouse rows and clusters of addresses;
#      the plan is made from shares of the sources on the workers (flyr-link plan-share);
#   2. a tile whose task fails for good: one error naming the tile, nothing at --out, no work left;
#   3. a plan whose sources changed: the tile refuses it;
#   4. a worker killed (SIGKILL) in the middle of the job (its outputs pass): the job finishes, with
#      the same bytes;
#   5. on the bundled sample: a GeoPackage (merged from the tiles' parts) is one run's bytes (the
#      plan cuts the GeoJSON sources into each tile's pack, and the driver says so); a
#      tile whose outputs pass fails for good ends the job with one error, nothing written, no work left.
#   6. buildings as a directory of GeoParquet parts (the README's command): one run's bytes;
#   7. a share of the plan failing for good: the plan read whole on the driver, said, one run's bytes.
# Prints "distributed: N passed, F failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# FLYR_SCRATCH_PATH: build somewhere other than .build, as scripts/test.sh does.
scratch=()
[ -z "${FLYR_SCRATCH_PATH:-}" ] || scratch=(--scratch-path "$FLYR_SCRATCH_PATH")
swift build -c release "${scratch[@]}" --product flyr-link >/dev/null
swift build -c release "${scratch[@]}" --product flyr-synth >/dev/null
bin=$(swift build -c release "${scratch[@]}" --show-bin-path)
flyr=$bin/flyr-link
export FLYR_LINK=$flyr
py=$(distributed/venv.sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/flyr-spark-test.XXXXXX")
trap 'distributed/local-cluster.sh stop "$work/cluster"; rm -rf "$work"' EXIT
passed=0 failed=0
check() {  # check NAME COMMAND...: one test
  if "${@:2}"; then passed=$((passed + 1)); echo "distributed: $1: ok"; else failed=$((failed + 1)); echo "distributed: $1: FAILED"; fi
}
master=$(distributed/local-cluster.sh start "$work/cluster" 2)

# The city, and one run's outputs to compare with.
# As GeoParquet of 2,000-row groups along a Hilbert curve, so that each tile reads only its part.
"$bin/flyr-synth" generate --buildings 200000 --seed 29 --profile hard --out "$work/city" >/dev/null
"$py" scripts/make-parquet-city.py "$work/city" "$work/city" 2000 >/dev/null
sources=(--buildings "$work/city/buildings.snappy.parquet" --addresses "$work/city/addresses.zstd.parquet" --parquet-reader flyr)
"$flyr" run "${sources[@]}" --out "$work/single" >/dev/null
same_outputs() {  # same_outputs DIR: every file as one run's; report.json and report.html but for their timings
  local f ok=0
  for f in "$work"/single/*; do
    f=$(basename "$f")
    case "$f" in
      report.json) "$py" - "$work/single/$f" "$1/$f" <<'EOF' || ok=1 ;;
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for r in (a, b):
    r["run"].pop("seconds_by_stage"); r["run"].pop("seconds_total")
sys.exit(a != b)
EOF
      report.html) cmp -s <(perl -0pe "s/<!--run-->.*?<!--\\/run-->//s" "$work/single/$f") <(perl -0pe "s/<!--run-->.*?<!--\\/run-->//s" "$1/$f") || ok=1 ;;
      *) cmp -s "$work/single/$f" "$1/$f" || { echo "distributed: $1/$f differs from one run's" >&2; ok=1; } ;;
    esac
  done
  return $ok
}
# (Every job bounded: a job that stalls fails the check rather than hang the test run.)
spark() { timeout 900 distributed/flyr-link-spark --master "$master" "$@"; }

# 1. Sixteen tiles on the cluster: the same bytes; the tiles' edges cut rows and clusters.
spark --tiles 16 "${sources[@]}" --out "$work/dist" --work "$work/kept" --keep-work >"$work/dist.log" 2>&1 || { cat "$work/dist.log" >&2; }
check "16 tiles on two workers: every output byte-identical to one run's" same_outputs "$work/dist"
check "the plan made from 4 shares of the GeoParquet sources, on the workers" grep -q "^flyr-link-spark: plan: made from 4 shares of the sources$" "$work/dist.log"
check "the tiles' edges cut through townhouse rows and address clusters" "$py" distributed/tile_edges.py "$work/kept" "$work/single"

# 2. A tile whose task fails for good (every attempt): one error naming it, nothing at --out, no work left.
cat >"$work/failing-flyr-link" <<EOF
#!/bin/sh
case " \$* " in *" tile link "*"--tile 5 "*) echo "flyr-link: tile 5: made to fail" >&2; exit 1 ;; esac
exec "$flyr" "\$@"
EOF
chmod +x "$work/failing-flyr-link"
failing_run() {
  ! FLYR_LINK=$work/failing-flyr-link spark --tiles 8 "${sources[@]}" --out "$work/failed" >"$work/failed.log" 2>&1 &&
    grep -q "^flyr-link-spark: tile 5 (link) failed" "$work/failed.log" && [ ! -e "$work/failed" ] &&
    [ -z "$(find "$work" -maxdepth 1 -name '.failed.flyr-spark-*')" ]
}
check "a tile failing for good: one error naming it, nothing written" failing_run

# 3. A plan whose sources changed since: the tile refuses it.
changed_sources() {
  cp "$work/city/addresses.geojson" "$work/addresses-copy.geojson"
  "$flyr" plan --buildings "$work/city/buildings.snappy.parquet" --addresses "$work/addresses-copy.geojson" --tiles 4 --out "$work/plan.json" >/dev/null
  printf ' ' >>"$work/addresses-copy.geojson"
  ! "$flyr" tile measures --plan "$work/plan.json" --tile 0 --out "$work/part.json" 2>"$work/changed.err" &&
    grep -q "is not the file the plan was made from" "$work/changed.err" && [ ! -e "$work/part.json" ]
}
check "a plan whose sources changed: refused" changed_sources

# 4. A worker killed (SIGKILL, with its executor) in the middle of the job: the same bytes.
killed_worker() {
  # The job in its own process group: whatever happens, it is not left behind.
  setsid timeout 900 distributed/flyr-link-spark --master "$master" --tiles 16 "${sources[@]}" --out "$work/survived" \
    --work "$work/killed-work" >"$work/survived.log" 2>&1 </dev/null &
  local job=$! ok=0
  # Killed in the last pass, once the first tile's parts of the outputs are written: the tasks
  # it ran again write beside what the first attempts wrote (or were writing when killed).
  local parts
  for _ in $(seq 1800); do
    parts=$(find "$work/killed-work/decisions" -maxdepth 1 -name 'tile-*.parts' 2>/dev/null | wc -l)
    [ "$parts" -gt 0 ] && break
    sleep 0.1
  done
  distributed/local-cluster.sh kill "$work/cluster" 1
  echo "distributed: worker 1 and its executor killed with $parts of 16 tiles' parts of the outputs written"
  # (Killed after the last tile's parts would not be in the middle of the job.)
  [ "$parts" -gt 0 ] && [ "$parts" -lt 16 ] || { echo "distributed: the kill missed the outputs pass" >&2; ok=1; }
  sleep 1
  # (Killed processes may stay as zombies where nothing reaps them: only live ones count.)
  if ps -eo pgid=,stat= | awk -v g="$(cat "$work/cluster/worker1.pgid")" '$1 == g && $2 !~ /^Z/' | grep -q .; then
    echo "distributed: worker 1 still runs" >&2; ok=1
  fi
  wait $job || { cat "$work/survived.log" >&2; ok=1; }
  kill -TERM -- "-$job" 2>/dev/null || true  # (the launcher then stops its own job's group)
  [ $ok -eq 0 ] && same_outputs "$work/survived"
}
check "a worker killed mid-job: the job finishes with the same bytes" killed_worker

# 5. The bundled sample: a GeoPackage (made from the merged parts, its --out naming it) is one
#    run's bytes; a tile whose outputs pass fails for good ends the job.
helsinki=(--buildings data/helsinki/buildings.geojson --addresses data/helsinki/addresses.geojson)
geopackage() {
  "$flyr" run "${helsinki[@]}" --format gpkg --out "$work/one.gpkg" >/dev/null &&
    spark --tiles 4 "${helsinki[@]}" --out "$work/dist.gpkg" >"$work/gpkg.log" 2>&1 &&
    grep -q "outputs: 4 tiles; merging them" "$work/gpkg.log" && cmp -s "$work/one.gpkg" "$work/dist.gpkg" &&
    grep -q "^flyr-link-spark: plan: 4 tiles; the buildings and addresses cut into each tile's pack" "$work/gpkg.log" &&
    grep -q "^flyr-link-spark: plan: the sources read whole on the driver (the sources are not both local GeoParquet)$" "$work/gpkg.log"
}
check "a GeoPackage from the tiles' parts: one run's bytes" geopackage
cat >"$work/failing-outputs" <<EOF
#!/bin/sh
case " \$* " in *" tile outputs "*"--tile 2 "*) echo "flyr-link: tile 2: made to fail" >&2; exit 1 ;; esac
exec "$flyr" "\$@"
EOF
chmod +x "$work/failing-outputs"
failing_outputs() {
  ! FLYR_LINK=$work/failing-outputs spark --tiles 4 "${helsinki[@]}" --out "$work/no-outputs" >"$work/no-outputs.log" 2>&1 &&
    grep -q "^flyr-link-spark: tile 2 (outputs) failed" "$work/no-outputs.log" && [ ! -e "$work/no-outputs" ] &&
    [ -z "$(find "$work" -maxdepth 1 -name '.no-outputs.flyr-spark-*')" ]
}
check "a tile's outputs pass failing for good: one error naming it, nothing written" failing_outputs
nested_work() {  # a --work inside --out: refused before anything runs (the work directory is removed at the end)
  ! spark --tiles 2 "${helsinki[@]}" --out "$work/nest" --work "$work/nest/work" >"$work/nest.log" 2>&1 &&
    grep -q "^flyr-link-spark: --work .* one lies in the other" "$work/nest.log" && [ ! -e "$work/nest" ]
}
check "a --work inside --out: refused, nothing written" nested_work

# 6. The README's command: buildings as a directory of GeoParquet parts (Overture's layout: parts
#    under a hive-style directory, a marker beside them): one run's bytes.
partitioned() {
  mkdir -p "$work/overture/theme=buildings"
  cp Tests/FlyrLinkTests/Fixtures/city2k-parts/*.parquet "$work/overture/theme=buildings/"
  touch "$work/overture/_SUCCESS"
  local parts=(--buildings "$work/overture/" --addresses Tests/FlyrLinkTests/Fixtures/city2k/addresses.zstd.parquet --parquet-reader flyr)
  "$flyr" run "${parts[@]}" --out "$work/parts-one" >/dev/null &&
    spark --tiles 4 "${parts[@]}" --out "$work/parts-dist" >"$work/parts.log" 2>&1 &&
    grep -q "^flyr-link-spark: plan: 4 tiles$" "$work/parts.log" &&
    for f in links.csv addresses.geojson buildings.geojson units.geojson features.geojson rejects.csv; do
      cmp -s "$work/parts-one/$f" "$work/parts-dist/$f" || { echo "distributed: parts-dist/$f differs from one run's" >&2; false; } || return 1
    done
}
check "a directory of GeoParquet parts: one run's bytes, each tile reading its part" partitioned

# 7. A share of the plan whose task fails for good: the plan is made from a whole read on the
#    driver, the launcher says why, and the outputs are still one run's.
cat >"$work/failing-share" <<EOF
#!/bin/sh
case " \$* " in *" plan-share scan "*"--share 1/"*) echo "flyr-link: share 1: made to fail" >&2; exit 1 ;; esac
exec "$flyr" "\$@"
EOF
chmod +x "$work/failing-share"
failing_share() {
  local city=(--buildings Tests/FlyrLinkTests/Fixtures/city2k/buildings.snappy.parquet --addresses Tests/FlyrLinkTests/Fixtures/city2k/addresses.zstd.parquet --parquet-reader flyr)
  "$flyr" run "${city[@]}" --out "$work/share-one" >/dev/null &&
    FLYR_LINK=$work/failing-share spark --tiles 4 "${city[@]}" --out "$work/share-dist" >"$work/share.log" 2>&1 &&
    grep -q "^flyr-link-spark: plan: the sources read whole on the driver (share 1 of the plan (scan) failed: flyr-link: share 1: made to fail)$" "$work/share.log" &&
    for f in links.csv addresses.geojson buildings.geojson units.geojson features.geojson rejects.csv; do
      cmp -s "$work/share-one/$f" "$work/share-dist/$f" || { echo "distributed: share-dist/$f differs from one run's" >&2; false; } || return 1
    done
}
check "a share of the plan failing for good: the plan read whole, said, one run's bytes" failing_share

echo "distributed: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
