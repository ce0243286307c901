#!/usr/bin/env bash
# Re-fits the link model: builds flyr-link and flyr-synth (release), fits on the truth sets
# (fit.py says which), writes benchmarks/link-model/link-model.json and compiles it in
# (scripts/gen-link-model.sh). The same data gives the same file.
set -euo pipefail
cd "$(dirname "$0")/../.."
source benchmarks/link-model/env.sh
swift build -c release --product flyr-link >/dev/null
swift build -c release --product flyr-synth >/dev/null
"$py" benchmarks/link-model/fit.py "$@"
scripts/gen-link-model.sh
