# Sourced by check.sh: a virtual environment with GeoPandas, pyarrow and DuckDB pinned
# (scripts/geoparquet-check/.venv, git-ignored, made from PyPI on first use).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=$("$here/../pinned-venv.sh" "$here/.venv" "import geopandas, pyarrow, duckdb" -r "$here/requirements.txt")
