#!/usr/bin/env bash
# How much of an evaluation is the deal of the 400 m blocks into folds: fits the fold models and
# scores them (as benchmarks/evaluate.sh does, with the hard flyr-synth city) once per fold
# seed, and prints each set's scores under every deal, their mean and the calibration bands
# outside the issue's bounds. Seed 0 is evaluate.sh's deal.
#   benchmarks/evaluate-seeds.sh [seed...]     # default 0 1 2 3 4; about 3 minutes a seed
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(0 1 2 3 4)
source benchmarks/link-model/env.sh
swift build -c release --product flyr-link >/dev/null
swift build -c release --product flyr-synth >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summaries=()
for seed in "${seeds[@]}"; do
  d="$work/seed-$seed"
  "$py" benchmarks/link-model/fit.py --work "$d/fit" --out "$d/refit.json" --folds-dir "$d/folds" --fold-seed "$seed" 2>/dev/null
  "$py" benchmarks/link-model/evaluate.py --work "$d/eval" --folds-dir "$d/folds" --model "$d/refit.json" \
    --synth 202:20000:hard --summary-json "$d/summary.json" >/dev/null
  summaries+=("$d/summary.json")
done
"$py" benchmarks/link-model/seeds_summary.py "${summaries[@]}"
