#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install the system libraries, build flyr-link (release)
# and run the bundled Helsinki demo (pipelines/helsinki.toml), printing a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product flyr-link
.build/release/flyr-link run pipelines/helsinki.toml "$@"
echo "(the binary is $(pwd)/.build/release/flyr-link; scripts/install.sh [PREFIX] puts flyr-link and flyr-synth on the PATH)" >&2
