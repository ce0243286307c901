#!/usr/bin/env bash
# What a distributed run's plan and its tiles' reads cost, without Spark: `flyr-link plan` (wall,
# CPU, peak; the bytes of its tiles' packs, if any), then every tile's measures pass, one after
# the other on one thread (each reads its part of the sources, or its packs), each timed by
# /usr/bin/time.
#   [FLYR_LINK_BIN=…/flyr-link] benchmarks/tile-reads.sh BUILDINGS ADDRESSES TILES [plan options]
# Prints the plan's line and the tiles' (wall and peak: mean and max; CPU: sum).
set -euo pipefail
cd "$(dirname "$0")/.."
buildings=$1 addresses=$2 tiles=$3
shift 3
flyr=${FLYR_LINK_BIN:-$(pwd)/.build/release/flyr-link}
work=$(mktemp -d "${TMPDIR:-/tmp}/flyr-tile-reads.XXXXXX")
trap 'rm -rf "$work"' EXIT
/usr/bin/time -f "%e %U %S %M" -o "$work/plan.time" "$flyr" plan --buildings "$buildings" --addresses "$addresses" \
  --tiles "$tiles" --out "$work/plan.json" "$@" >/dev/null 2>"$work/plan.err" || { cat "$work/plan.err" >&2; exit 1; }
read -r wall user sys kb <"$work/plan.time"
packs=$(du -sb "$work/plan.packs" 2>/dev/null | cut -f1 || true)
printf "plan:   wall %7.2f s  CPU %7.2f s  peak %5d MB  packs %s\n" "$wall" "$(echo "$user + $sys" | bc)" $((kb / 1024)) \
  "${packs:+$((packs / 1048576)) MB}"
for ((t = 0; t < tiles; t++)); do
  /usr/bin/time -a -o "$work/tiles.time" -f "%e %U %S %M" "$flyr" tile measures --plan "$work/plan.json" --tile "$t" \
    --threads 1 --out "$work/m-$t.json" >/dev/null 2>"$work/tile.err" || { cat "$work/tile.err" >&2; exit 1; }
done
awk -v n="$tiles" '{ w += $1; if ($1 > wm) wm = $1; c += $2 + $3; m += $4; if ($4 > mm) mm = $4 }
  END { printf "tiles:  %d measures passes, wall mean %.2f s max %.2f s, CPU sum %.2f s, peak mean %d MB max %d MB\n",
        n, w / n, wm, c, m / n / 1024, mm / 1024 }' "$work/tiles.time"
