# Sourced by check.sh: a virtual environment with GeoPandas, pyarrow and DuckDB pinned
# (scripts/geoparquet-check/.venv, git-ignored, made from PyPI on first use).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
venv="$here/.venv"
if ! "$venv/bin/python" -c "import geopandas, pyarrow, duckdb" 2>/dev/null; then
  python3 -c "import ensurepip, venv" 2>/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; }
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$here/requirements.txt"
fi
py="$venv/bin/python"
