#!/usr/bin/env bash
# The Python package's checks, from a clean clone: a venv with the pinned dev tools
# (requirements-dev.txt), the package built from source with maturin (no prebuilt
# wheel of ours is fetched), the type checks (mypy --strict over the package, its
# stubs and the tests; stubtest of the stubs against the built module) and pytest.
#
# Needs python3 (3.10 or newer) with venv, cargo, and PyPI. The venv is
# bindings/python/.venv unless SHELLBOX_PY_VENV names another. It builds Rust: run
# it where no other cargo build runs at the same time.
set -euo pipefail
cd "$(dirname "$0")"

venv="${SHELLBOX_PY_VENV:-.venv}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
venv="$(cd "$venv" && pwd)"
export VIRTUAL_ENV="$venv"
export PATH="$venv/bin:$PATH"

echo "== pip install -r requirements-dev.txt"
python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

echo "== maturin develop --release"
maturin develop --release --quiet

echo "== mypy --strict"
python -m mypy python/shellbox tests

echo "== stubtest shellbox._native"
python -m mypy.stubtest shellbox._native

echo "== pytest"
python -m pytest -q -p no:cacheprovider
