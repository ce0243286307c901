# Sourced by fit.sh and evaluate.sh: a virtual environment with the fitting's pinned packages
# (benchmarks/link-model/.venv, made from PyPI on first use).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
py=$("$here/../../scripts/pinned-venv.sh" "$here/.venv" "import numpy, sklearn" -r "$here/requirements.txt")
