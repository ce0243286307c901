#!/usr/bin/env bash
# Reads GeoParquet files with GeoPandas and DuckDB (check.py), in the pinned venv (env.sh).
# Usage: check.sh FILE.parquet… ; prints one JSON line per file, exits non-zero if a reader fails.
set -euo pipefail
source "$(dirname "$0")/env.sh"
exec "$py" "$(dirname "$0")/check.py" "$@"
