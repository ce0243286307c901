#!/usr/bin/env bash
# The python of distributed/.venv (git-ignored): PySpark and pyarrow pinned in requirements.txt,
# from PyPI on first use.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec "$here/../scripts/pinned-venv.sh" "$here/.venv" "import pyspark, pyarrow" -r "$here/requirements.txt"
